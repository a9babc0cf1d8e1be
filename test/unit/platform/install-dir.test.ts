import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { INSTALL_DIR, TIMBRE_VERSION } from '../../../src/platform/install-dir.js';
import { REPO_ROOT } from '../../helpers/paths.js';

test('the installation is the checkout holding Timbre’s package.json, and its version is that manifest’s', async () => {
  assert.equal(join(INSTALL_DIR, '/'), join(REPO_ROOT, '/'));
  const manifest = JSON.parse(await readFile(join(INSTALL_DIR, 'package.json'), 'utf8'));
  assert.equal(manifest.name, 'timbre');
  assert.equal(TIMBRE_VERSION, manifest.version);
});
