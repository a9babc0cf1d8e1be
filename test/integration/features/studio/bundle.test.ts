import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadStudioBundle } from '../../../../src/features/studio/index.js';
import { REPO_ROOT } from '../../../helpers/paths.js';

/** What the browser downloads, gzipped, may not exceed this (the README states the measured size). */
const GZIPPED_BUDGET_BYTES = 150 * 1024;

test('the built studio is one page, hashed assets, and stays within its download budget', () => {
  const bundle = loadStudioBundle(join(REPO_ROOT, 'studio', 'dist'));
  assert.ok(bundle, 'npm run setup builds the studio into studio/dist');
  const names = [...bundle.keys()];
  assert.ok(names.includes('index.html'));
  assert.ok(
    names.some((name) => /^assets\/.+-[A-Za-z0-9_-]{8}\.js$/.test(name)),
    names.join(', '),
  );
  for (const [name, file] of bundle) assert.equal(file.immutable, name !== 'index.html', name);
  const gzipped = [...bundle.values()].reduce((sum, file) => sum + file.gzipped.length, 0);
  assert.ok(gzipped < GZIPPED_BUDGET_BYTES, `the studio downloads ${gzipped} bytes gzipped`);
});
