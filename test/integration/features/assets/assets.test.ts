import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { injectRequest, inProcessWithAdmin, mintKey, startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';
import { removeDir, tempDir, type CreatedKey } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const SECONDS = 2.345;
const TOLERANCE = 0.01;

/** Each format as the issue names it, with the codec ffmpeg writes it with. */
const FORMATS = [
  { ext: 'wav', codec: 'pcm_s16le', args: ['-c:a', 'pcm_s16le'] },
  { ext: 'mp3', codec: 'mp3', args: ['-c:a', 'libmp3lame', '-q:a', '2'] },
  { ext: 'ogg', codec: 'opus', args: ['-c:a', 'libopus'] },
  { ext: 'flac', codec: 'flac', args: ['-c:a', 'flac'] },
  { ext: 'm4a', codec: 'aac', args: ['-c:a', 'aac'] },
];

async function sine(dir: string, ext: string, args: string[], seconds = SECONDS): Promise<string> {
  const path = join(dir, `sine.${ext}`);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...args, path]);
  return path;
}

/** A multipart POST with one file part per path (field "file"). */
async function upload(server: InProcessTimbre, key: string, route: string, paths: string[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const path of paths) form.append('file', await openAsBlob(path), basename(path));
  const response = await server.fetch(new URL(route, server.url), { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Files left in the assets folder whose names mark them temporary. */
async function tempFiles(dataDir: string): Promise<string[]> {
  const names = await readdir(join(dataDir, 'assets')).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.tmp'));
}

let media: string;
let textFile: string;
const files = new Map<string, string>();

before(async () => {
  media = await tempDir('timbre-assets-media-');
  for (const format of FORMATS) files.set(format.ext, await sine(media, format.ext, format.args));
  textFile = join(media, 'notes.txt');
  await writeFile(textFile, 'This is a text file, not audio.\n'.repeat(20));
});

after(() => removeDir(media));

describe('assets and audio duration', () => {
  const fixture = inProcessWithAdmin({ keyArgs: ['--rate-limit', 'audio:process=1000'] });
  const post = (route: string, paths: string[], fields?: Record<string, string>) => upload(fixture.server, fixture.admin.key, route, paths, fields);

  for (const format of FORMATS) {
    test(`audio-duration of an uploaded ${format.ext} file is within 10 ms`, async () => {
      const { status, body } = await post('/api/audio-duration', [files.get(format.ext)!]);
      assert.equal(status, 200, JSON.stringify(body));
      assert.ok(Math.abs(body.duration - SECONDS) < TOLERANCE, `${format.ext}: ${body.duration}`);
      assert.equal(body.format, format.ext);
      assert.equal(body.codec, format.codec);
      assert.equal(body.channels, 1);
      assert.equal(body.source, 'upload');
      assert.ok(body.sample_rate >= 8000 && body.bit_rate > 0);
      assert.deepEqual(await tempFiles(fixture.server.dataDir), []);
    });
  }

  test('a text file is refused with 415 audio_unreadable and leaves no file', async () => {
    for (const route of ['/api/audio-duration', '/api/assets']) {
      const { status, body } = await post(route, [textFile]);
      assert.equal(status, 415);
      assert.equal(body.error.code, 'audio_unreadable');
    }
    assert.deepEqual(await readdir(join(fixture.server.dataDir, 'assets')).catch(() => []), []);
  });

  test('an upload needs exactly one file part', async () => {
    const none = await post('/api/assets', [], { name: 'no file' });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, 'file_missing');
    const two = await post('/api/assets', [files.get('wav')!, files.get('flac')!]);
    assert.equal(two.status, 400);
    assert.equal(two.body.error.code, 'too_many_files');
    const json = await injectRequest(fixture.server, 'POST', '/api/assets', { key: fixture.admin.key, json: {} });
    assert.equal(json.status, 415);
    assert.equal(json.body.error.code, 'unsupported_media_type');
    assert.deepEqual(await tempFiles(fixture.server.dataDir), []);
  });

  test('upload → asset → duration by asset_id → delete → 404', async () => {
    const path = files.get('m4a')!;
    const created = await post('/api/assets', [path]);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const asset = created.body;
    assert.match(asset.asset_id, /^asset_[A-Za-z0-9_-]+$/);
    assert.equal(asset.origin, 'upload');
    assert.equal(asset.original_name, 'sine.m4a');
    assert.equal(asset.format, 'm4a');
    assert.equal(asset.codec, 'aac');
    assert.ok(Math.abs(asset.duration - SECONDS) < TOLERANCE);
    const bytes = await readFile(path);
    assert.equal(asset.size_bytes, bytes.length);
    assert.equal(asset.sha256, createHash('sha256').update(bytes).digest('hex'));
    const stored = join(fixture.server.dataDir, 'assets', `${asset.asset_id}.m4a`);
    assert.equal((await stat(stored)).size, bytes.length);

    const key = fixture.admin.key;
    const listed = await injectRequest(fixture.server, 'GET', '/api/assets', { key });
    assert.deepEqual(
      listed.body.assets.map((item: { asset_id: string }) => item.asset_id),
      [asset.asset_id],
    );
    const byId = await injectRequest(fixture.server, 'POST', '/api/audio-duration', { key, json: { asset_id: asset.asset_id } });
    assert.equal(byId.status, 200);
    assert.equal(byId.body.source, 'asset');
    assert.ok(Math.abs(byId.body.duration - SECONDS) < TOLERANCE);

    const deleted = await injectRequest(fixture.server, 'DELETE', `/api/assets/${asset.asset_id}`, { key });
    assert.equal(deleted.status, 204);
    const gone = await injectRequest(fixture.server, 'GET', `/api/assets/${asset.asset_id}`, { key });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'asset_not_found');
    await assert.rejects(stat(stored), { code: 'ENOENT' });
  });

  test('another key cannot see, probe or delete an asset', async () => {
    const created = await post('/api/assets', [files.get('wav')!]);
    const id = created.body.asset_id as string;
    const other = mintKey(fixture.server, 'other', ['--rate-limit', 'audio:process=1000']);
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/assets/${id}`],
      ['DELETE', `/api/assets/${id}`],
      ['POST', '/api/audio-duration', { asset_id: id }],
    ];
    for (const [method, path, json] of calls) {
      const response = await injectRequest(fixture.server, method, path, { key: other.key, json });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.body.error.code, 'asset_not_found');
    }
    const list = await injectRequest(fixture.server, 'GET', '/api/assets', { key: other.key });
    assert.deepEqual(list.body.assets, []);
    const own = await injectRequest(fixture.server, 'GET', `/api/assets/${id}`, { key: fixture.admin.key });
    assert.equal(own.status, 200);
  });

  test('local paths are disabled by default', async () => {
    const response = await injectRequest(fixture.server, 'POST', '/api/audio-duration', { key: fixture.admin.key, json: { path: files.get('wav') } });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'local_paths_disabled');
  });
});

describe('upload limit and local path roots', () => {
  let server: InProcessTimbre;
  let key: CreatedKey;
  let root: string;

  before(async () => {
    root = join(media, 'allowed');
    await mkdir(root);
    await sine(root, 'wav', ['-c:a', 'pcm_s16le']);
    await symlink(files.get('flac')!, join(root, 'link-out.flac'));
    server = await startInProcess({ flags: { 'max-upload-bytes': '2048', 'local-path-roots': root } });
    key = mintKey(server, 'limited', ['--rate-limit', 'audio:process=1000']);
  });

  after(() => server.close());

  test('an upload over the limit gets 413 and leaves nothing', async () => {
    for (const route of ['/api/assets', '/api/audio-duration']) {
      const { status, body } = await upload(server, key.key, route, [files.get('wav')!]);
      assert.equal(status, 413);
      assert.equal(body.error.code, 'payload_too_large');
      assert.equal(body.error.details.max_bytes, 2048);
    }
    assert.deepEqual(await readdir(join(server.dataDir, 'assets')).catch(() => []), []);
    const list = await injectRequest(server, 'GET', '/api/assets', { key: key.key });
    assert.deepEqual(list.body.assets, []);
  });

  test('a file inside a root is read; escapes and outside symlinks are refused', async () => {
    const probe = (path: string) => injectRequest(server, 'POST', '/api/audio-duration', { key: key.key, json: { path } });
    const inside = await probe(join(root, 'sine.wav'));
    assert.equal(inside.status, 200, JSON.stringify(inside.body));
    assert.equal(inside.body.source, 'path');
    assert.ok(Math.abs(inside.body.duration - SECONDS) < TOLERANCE);

    for (const path of [`${root}/../sine.wav`, join(root, 'link-out.flac'), files.get('mp3')!]) {
      const refused = await probe(path);
      assert.equal(refused.status, 403, path);
      assert.equal(refused.body.error.code, 'path_not_allowed');
    }
    const missing = await probe(join(root, 'missing.wav'));
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'file_not_found');
  });
});
