import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TEST_CATALOG_ENV } from '../../../../src/platform/models/catalog.js';
import { installedModels } from '../../../../src/platform/models/manager.js';
import { SHARED_MODELS } from '../../../helpers/paths.js';
import { cli, removeDir, tempDir } from '../../../helpers/timbre.js';

const SHARED = SHARED_MODELS;
/** The source folder as it appears in messages, as a regular-expression fragment. */
const SOURCE = SHARED.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const SILERO_SHA = '1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('timbre models with --from a ../shared/models-style folder', () => {
  let modelsDir: string;
  before(async () => {
    modelsDir = await tempDir('timbre-models-');
  });
  after(() => removeDir(modelsDir));

  test('install --defaults installs silero-vad verified and names what the incomplete models lack', async () => {
    const result = await cli(['models', 'install', '--defaults', '--from', SHARED, '--models-dir', modelsDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`✓ silero-vad installed in .*\\(from ${SOURCE}\\/asr; sha256 verified\\)`));
    assert.match(result.stdout, new RegExp(`kokoro-multi-lang-v1_0-int8: incomplete in ${SOURCE}\\/kokoro: model\\.int8\\.onnx missing`));
    assert.match(
      result.stdout,
      new RegExp(
        `pocket-tts-int8: incomplete in ${SOURCE}\\/pocket-tts: lm_flow\\.int8\\.onnx, lm_main\\.int8\\.onnx, encoder\\.onnx, decoder\\.int8\\.onnx, text_conditioner\\.onnx missing`,
      ),
    );
    assert.match(result.stdout, new RegExp(`whisper-tiny\\.en: not in ${SOURCE}`));
    assert.equal(sha256(await readFile(join(modelsDir, 'silero-vad', 'silero_vad.onnx'))), SILERO_SHA);
    assert.deepEqual(await readdir(modelsDir), ['silero-vad'], 'nothing but the installed model is left behind');
  });

  test('list --json shows each model state; installedModels reports what /api/system/info needs', async () => {
    const listed = await cli(['models', 'list', '--json', '--models-dir', modelsDir]);
    assert.equal(listed.code, 0, listed.stderr);
    const states = Object.fromEntries(JSON.parse(listed.stdout).map((model: { name: string; state: string }) => [model.name, model.state]));
    assert.equal(states['silero-vad'], 'installed');
    assert.equal(states['kokoro-multi-lang-v1_0-int8'], 'not installed');
    // A folder with some files (say, copied by hand) is listed as incomplete with the missing files.
    await mkdir(join(modelsDir, 'kokoro-multi-lang-v1_0-int8'));
    await writeFile(join(modelsDir, 'kokoro-multi-lang-v1_0-int8', 'tokens.txt'), await readFile(join(SHARED, 'kokoro', 'tokens.txt')));
    const kokoro = JSON.parse((await cli(['models', 'list', '--json', '--models-dir', modelsDir])).stdout).find(
      (model: { name: string }) => model.name === 'kokoro-multi-lang-v1_0-int8',
    );
    assert.equal(kokoro.state, 'incomplete');
    assert.deepEqual(kokoro.missing_files, ['model.int8.onnx', 'voices.bin']);
    assert.deepEqual(await installedModels(modelsDir), [
      { name: 'silero-vad', engine: 'silero-vad', kind: 'vad', size_bytes: 2_327_524, license: 'MIT', languages: ['*'], complete: true, missing_files: [] },
      {
        name: 'kokoro-multi-lang-v1_0-int8',
        engine: 'kokoro',
        kind: 'synthesizer',
        size_bytes: 687,
        license: 'Apache-2.0',
        languages: kokoro.languages,
        complete: false,
        missing_files: ['model.int8.onnx', 'voices.bin'],
      },
    ]);
  });

  test('a model asked for by name that is incomplete in the source fails; unknown names are refused', async () => {
    const named = await cli(['models', 'install', 'pocket-tts-int8', '--models-dir', modelsDir], { TIMBRE_MODELS_FROM: SHARED });
    assert.equal(named.code, 1);
    assert.match(named.stdout, new RegExp(`pocket-tts-int8: incomplete in ${SOURCE}\\/pocket-tts`));
    const unknown = await cli(['models', 'install', '../../etc', '--from', SHARED, '--models-dir', modelsDir]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown model "..\/..\/etc"/);
  });

  test('remove deletes the model folder', async () => {
    const removed = await cli(['models', 'remove', 'silero-vad', '--models-dir', modelsDir]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(existsSync(join(modelsDir, 'silero-vad')), false);
    const again = await cli(['models', 'remove', 'silero-vad', '--models-dir', modelsDir]);
    assert.match(again.stdout, /silero-vad was not installed/);
  });
});

/** Serves files from a folder with Range support, plus a redirect, counting ranged requests. */
function fileServer(root: string) {
  const ranges: string[] = [];
  const server = http.createServer(
    (request, response) =>
      void (async () => {
        const path = request.url ?? '/';
        if (path.startsWith('/moved/')) return response.writeHead(302, { location: path.replace('/moved/', '/files/') }).end();
        const data = await readFile(join(root, path.replace('/files/', ''))).catch(() => undefined);
        if (!data) return response.writeHead(404).end();
        const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? Number.NaN);
        if (Number.isInteger(start)) {
          ranges.push(request.headers.range!);
          response.writeHead(206, { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}`, 'content-length': data.length - start });
          return response.end(data.subarray(start));
        }
        response.writeHead(200, { 'content-length': data.length }).end(data);
      })(),
  );
  return { server, ranges };
}

describe('timbre models install by download (local server, test catalog)', () => {
  let work: string;
  let modelsDir: string;
  let archive: Buffer;
  let base: string;
  let env: Record<string, string>;
  let server: http.Server;
  let ranges: string[];
  const model = Buffer.concat([Buffer.from([0x08, 0x07]), Buffer.alloc(4096, 1)]);

  /** Writes the test catalog: one entry per case, all pointing at the local server. */
  async function writeCatalog(served: string) {
    const entry = (name: string, url: string, bytes: number | null, hash: string | null) => ({
      name,
      engine: 'test',
      kind: 'synthesizer',
      description: 'test model',
      license: 'MIT',
      languages: ['en'],
      archive: { url, bytes, sha256: hash, rootDir: 'test-model' },
      files: [
        { path: 'model.onnx', bytes: model.length, sha256: sha256(model) },
        { path: 'tokens.txt', bytes: null, sha256: null },
      ],
      sharedPath: name,
    });
    const catalog = [
      entry('test-tarball', `${base}/moved/test-model.tar.bz2`, archive.length, sha256(archive)),
      entry('test-wrong-sha', `${base}/files/test-model.tar.bz2`, archive.length, '0'.repeat(64)),
      entry('test-unverified', `${base}/files/test-model.tar.bz2`, null, null),
      entry('test-plain-http', 'http://example.invalid/test-model.tar.bz2', null, null),
      entry('test-unreachable', 'http://127.0.0.1:9/test-model.tar.bz2', null, null),
      (() => {
        const withExtra = entry('test-with-extra', `${base}/files/test-model.tar.bz2`, archive.length, sha256(archive));
        const vocoder = { path: 'vocoder.onnx', bytes: model.length, sha256: sha256(model) };
        return { ...withExtra, files: [...withExtra.files, vocoder], extras: [{ ...vocoder, url: `${base}/files/vocoder.onnx` }] };
      })(),
    ];
    await writeFile(join(served, 'catalog.json'), JSON.stringify(catalog));
  }

  before(async () => {
    work = await tempDir('timbre-download-');
    modelsDir = join(work, 'models');
    const served = join(work, 'served');
    await mkdir(join(work, 'test-model'), { recursive: true });
    await mkdir(served);
    await writeFile(join(work, 'test-model', 'model.onnx'), model);
    await writeFile(join(work, 'test-model', 'tokens.txt'), 'a 0\nb 1\n');
    execFileSync('tar', ['-cjf', join(served, 'test-model.tar.bz2'), '-C', work, 'test-model']);
    await writeFile(join(served, 'vocoder.onnx'), model);
    archive = await readFile(join(served, 'test-model.tar.bz2'));
    ({ server, ranges } = fileServer(served));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await writeCatalog(served);
    // TIMBRE_MODELS_FROM is set in CI; empty means unset, so these installs really download.
    env = { [TEST_CATALOG_ENV]: join(served, 'catalog.json'), TIMBRE_MODELS_FROM: '' };
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await removeDir(work);
  });

  test('a wrong sha256 is refused and leaves nothing behind', async () => {
    const result = await cli(['models', 'install', 'test-wrong-sha', '--models-dir', modelsDir], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /✗ test-wrong-sha: .*failed verification: sha256 [0-9a-f]{64} instead of 0{64}; the download was deleted/);
    assert.deepEqual(await readdir(modelsDir), []);
  });

  test('download follows the redirect, resumes a partial file, verifies, unpacks and installs', async () => {
    await writeFile(join(modelsDir, '.test-tarball.download'), archive.subarray(0, Math.floor(archive.length / 2)));
    const result = await cli(['models', 'install', 'test-tarball', '--models-dir', modelsDir], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /✓ test-tarball installed in .*sha256 verified/);
    assert.match(result.stderr, /test-tarball: 100% /, 'a plain progress line when stderr is not a terminal');
    assert.deepEqual(ranges, [`bytes=${Math.floor(archive.length / 2)}-`]);
    assert.deepEqual(await readFile(join(modelsDir, 'test-tarball', 'model.onnx')), model);
    assert.deepEqual(await readdir(modelsDir), ['test-tarball']);
    const listed = JSON.parse((await cli(['models', 'list', '--json', '--models-dir', modelsDir], env)).stdout);
    assert.equal(listed.find((entry: { name: string }) => entry.name === 'test-tarball').state, 'installed');
  });

  test('a model with a separately published file gets it downloaded and verified into its folder', async () => {
    const result = await cli(['models', 'install', 'test-with-extra', '--models-dir', modelsDir, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).results[0].verification, 'sha256');
    assert.deepEqual(await readFile(join(modelsDir, 'test-with-extra', 'vocoder.onnx')), model);
    assert.deepEqual(await readFile(join(modelsDir, 'test-with-extra', 'model.onnx')), model);
  });

  test('an archive without pins installs with a plain warning that it is unverified', async () => {
    const result = await cli(['models', 'install', 'test-unverified', '--models-dir', modelsDir, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /test-unverified: the catalog pins no sha256 .*, so this download is unverified \(its sha256 is [0-9a-f]{64}\)/);
    const [outcome] = JSON.parse(result.stdout).results;
    assert.equal(outcome.status, 'installed');
    assert.equal(outcome.verification, 'unverified');
  });

  test('plain http to another host is refused and an unreachable server fails with a clear message', async () => {
    const plain = await cli(['models', 'install', 'test-plain-http', '--models-dir', modelsDir], env);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /Refusing to download over http: http:\/\/example\.invalid\/.* \(only https is allowed\)/);
    const unreachable = await cli(['models', 'install', 'test-unreachable', '--models-dir', modelsDir], env);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /could not reach 127\.0\.0\.1: connect ECONNREFUSED/);
  });
});
