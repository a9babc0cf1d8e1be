import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import { engineInventory } from '../../../../src/platform/engines/inventory.js';
import { probeEngine } from '../../../../src/platform/engines/registry.js';
import { DEFAULT_MODELS, TEST_CATALOG_ENV } from '../../../../src/platform/models/catalog.js';
import { installedModels } from '../../../../src/platform/models/manager.js';
import { MIRRORED_MODELS, startOfficialMirror, type OfficialMirror } from '../../../helpers/official-mirror.js';
import { REPO_ROOT } from '../../../helpers/paths.js';
import { kokoroModel } from '../../../helpers/stand-in-models.js';
import { cli, removeDir, tempDir } from '../../../helpers/timbre.js';

/** What the engine host of a service with these models says it can run. */
const probingHere = (modelsDir: string) => ({ available: (id: EngineId) => probeEngine(modelsDir, id) });

// A connected machine's install, against a loopback mirror of sherpa-onnx's release assets laid
// out like the official exports: the catalog's URLs, root folders, file names and extras must
// match them, and every model must pass its engine's checks once installed.

const exec = promisify(execFile);
const KOKORO = 'kokoro-multi-lang-v1_0-int8';
const KOKORO_ARCHIVE = 'tts-models/kokoro-int8-multi-lang-v1_0.tar.bz2';

describe('installing the official archives from a loopback mirror', () => {
  let root: string;
  let mirror: OfficialMirror;
  let modelsDir: string;
  let env: Record<string, string>;

  before(async () => {
    root = await tempDir('timbre-mirror-');
    mirror = await startOfficialMirror(root);
    modelsDir = join(root, 'models');
    // TIMBRE_MODELS_FROM is set in CI; empty means unset, so these installs download.
    env = { [TEST_CATALOG_ENV]: mirror.catalogFile, TIMBRE_MODELS_FROM: '', TIMBRE_MODELS_DIR: modelsDir };
    // This process reads the installed folders against the same (mirrored) pins.
    process.env[TEST_CATALOG_ENV] = mirror.catalogFile;
  });
  after(async () => {
    delete process.env[TEST_CATALOG_ENV];
    await mirror.close();
    await removeDir(root);
  });

  test("the set-up's model step installs every default model, each verified, loadable and complete", async () => {
    // In a child: the step blocks on the CLI, and this process serves the mirror.
    const step = `import { installModels } from ${JSON.stringify(join(REPO_ROOT, 'scripts/setup/models.mjs'))}; process.stdout.write(JSON.stringify(installModels()));`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', step], { env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
    const summary = JSON.parse(stdout.slice(stdout.indexOf('{"ok"'))) as { ok: boolean; lines: string[] };
    assert.equal(summary.ok, true, summary.lines.join('\n'));
    for (const name of DEFAULT_MODELS)
      assert.ok(
        summary.lines.some((line) => line.startsWith(`  ✓ ${name} (`) && line.endsWith('): installed')),
        `${name}:\n${summary.lines.join('\n')}`,
      );
    assert.ok(summary.lines.includes('✓ Neural engines that work: silero-vad, kokoro, pocket-tts, whisper, speaker-embedding'), summary.lines.join('\n'));

    const installed = await installedModels(modelsDir);
    assert.deepEqual(
      installed.map((model) => [model.name, model.complete]),
      DEFAULT_MODELS.map((name) => [name, true]),
    );
    assert.ok(installed.find((model) => model.name === KOKORO)?.languages.includes('zh'), 'the archive carries lexicon-zh.txt');
    const engines = (await engineInventory(probingHere(modelsDir), modelsDir)).engines.filter((engine) => engine.neural);
    for (const id of ['silero-vad', 'kokoro', 'pocket-tts', 'whisper', 'speaker-embedding'])
      assert.deepEqual(engines.find((engine) => engine.id === id)?.available, true, JSON.stringify(engines.find((engine) => engine.id === id)));
  });

  test('every other catalog model installs from its official layout, with how it was verified', async () => {
    const others = MIRRORED_MODELS.filter((name) => !DEFAULT_MODELS.includes(name));
    const result = await cli(['models', 'install', ...others, '--models-dir', modelsDir, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    const outcomes = JSON.parse(result.stdout).results as { name: string; status: string; verification: string }[];
    assert.deepEqual(
      outcomes.map((outcome) => [outcome.name, outcome.status, outcome.verification]),
      others.map((name) => [name, 'installed', name === 'moonshine-tiny-en-int8' ? 'unverified' : 'sha256']),
    );
    assert.match(result.stderr, /moonshine-tiny-en-int8: the catalog pins no sha256 for .*, so this download is unverified/);
    assert.ok((await installedModels(modelsDir)).every((model) => model.complete));
    const engines = (await engineInventory(probingHere(modelsDir), modelsDir)).engines;
    for (const id of ['kitten', 'zipvoice', 'vits', 'moonshine']) assert.equal(engines.find((engine) => engine.id === id)?.available, true, id);
  });

  test('a re-published Kokoro archive installs when its pinned files are unchanged, and names the file that changed otherwise', async () => {
    const layout = join(root, 'layouts', KOKORO);
    // Repacked with one more file: other bytes, same pinned files.
    await writeFile(join(layout, 'kokoro-int8-multi-lang-v1_0/NOTICE'), 'added in a later upload\n');
    await exec('tar', ['-cjf', mirror.served(KOKORO_ARCHIVE), '-C', layout, 'kokoro-int8-multi-lang-v1_0']);
    const repacked = await cli(['models', 'install', KOKORO, '--models-dir', modelsDir], env);
    assert.equal(repacked.code, 0, repacked.stderr);
    assert.match(repacked.stdout, /✓ kokoro-multi-lang-v1_0-int8 installed .*size verified/);

    const changed = join(root, 'changed');
    await cp(layout, changed, { recursive: true });
    await writeFile(join(changed, 'kokoro-int8-multi-lang-v1_0/model.int8.onnx'), kokoroModel({ metadata: { version: 3, comment: 'a newer export' } }));
    await exec('tar', ['-cjf', mirror.served(KOKORO_ARCHIVE), '-C', changed, 'kokoro-int8-multi-lang-v1_0']);
    const before = await readFile(join(modelsDir, KOKORO, 'model.int8.onnx'));
    const refused = await cli(['models', 'install', KOKORO, '--models-dir', modelsDir], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /✗ kokoro-multi-lang-v1_0-int8: kokoro-multi-lang-v1_0-int8: http:\/\/127\.0\.0\.1:\d+\/tts-models\/kokoro-int8-multi-lang-v1_0\.tar\.bz2 holds files unlike the ones this catalog pins: model\.int8\.onnx has [\d,]+ bytes, expected [\d,]+\. Nothing was installed\. A newer Timbre may know the new version; to install it anyway, run: timbre models install kokoro-multi-lang-v1_0-int8 --accept-changed/,
    );
    assert.deepEqual(await readFile(join(modelsDir, KOKORO, 'model.int8.onnx')), before, 'the installed model is untouched');

    const accepted = await cli(['models', 'install', KOKORO, '--accept-changed', '--models-dir', modelsDir], env);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /✓ kokoro-multi-lang-v1_0-int8 installed .*UNVERIFIED/);
    assert.match(accepted.stderr, /installed with files unlike the catalog's pins, as asked \(--accept-changed\): model\.int8\.onnx has/);
  });

  test('a changed archive pinned by its own bytes is refused with the way forward, and nothing is left behind', async () => {
    const archive = mirror.served('tts-models/sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2');
    await writeFile(archive, Buffer.concat([await readFile(archive), Buffer.from('trailing bytes of a re-upload')]));
    const result = await cli(['models', 'install', 'pocket-tts-int8', '--models-dir', modelsDir], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /pocket-tts-int8: .*failed verification: \d+ bytes instead of \d+; the download was deleted\. .*--accept-changed/);
    await rm(join(modelsDir, '.pocket-tts-int8.download')).then(
      () => assert.fail('the refused download was kept'),
      () => undefined,
    );
  });
});
