// Black-box (the service as a process): a full disk and restarts need the service as a process.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { zipSync } from 'fflate';
import type WebSocket from 'ws';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { createKeyWithCli, postMultipart, request, startTimbre, type CreatedKey, type RunningTimbre } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

/**
 * A full data disk, for real: the service runs on a 20 MB tmpfs that a filler file fills up.
 * Mounting needs root on Linux; elsewhere the suite is skipped and says why.
 */
const mountPoint = await mkdtemp(join(tmpdir(), 'timbre-full-disk-'));
const skip = mountTmpfs(mountPoint, '20m');
const dataDir = join(mountPoint, 'data');
const filler = join(mountPoint, 'filler');

function mountTmpfs(dir: string, size: string): string | false {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return false;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `a tmpfs cannot be mounted here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}); run as root on Linux to test a full data disk`;
  }
}

/** Appends to the filler until the disk refuses even a 4 KiB write: whatever the service freed is taken again. */
function fillDisk(): void {
  const fd = openSync(filler, 'a');
  try {
    for (const size of [1024 * 1024, 4096, 512]) {
      const block = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

function freeDisk(): void {
  rmSync(filler, { force: true });
}

const LIMITS = ['tts:generate', 'tts:timeline', 'voices:read', 'voices:write', 'clone:create', 'audio:process', 'system:read', 'ws:connect'].flatMap(
  (scope) => ['--rate-limit', `${scope}=1000`],
);
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';
const LONG_TEXT = 'The quick brown fox jumps over the lazy dog near the quiet river bank. '.repeat(20);
const THREE_LINES = 'One short line. Two short lines. Three short lines.';
const SINE = encodeWav({ samples: Float32Array.from({ length: 16000 }, (_, i) => Math.sin(i / 8) * 0.4), sampleRate: 16000 });

function voiceArchive(id: string): Buffer {
  const manifest = {
    format: 'timbre-voices',
    version: 1,
    exported_at: '2024-05-01T12:00:00.000Z',
    voices: [
      {
        id,
        name: 'Imported',
        type: 'clone',
        engine: 'pico',
        engine_voice: 'pico:en-US',
        language: 'en-US',
        languages: ['en-US'],
        gender: 'female',
        description: 'imported while the disk is full',
        tags: [],
        settings: {},
        samples: [{ file: `samples/${id}/1.wav`, duration: 1, sample_rate: 16000, transcript: 'a tone' }],
      },
    ],
  };
  return Buffer.from(zipSync({ 'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)), [`samples/${id}/1.wav`]: SINE }));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Files whose names mark a write in progress (uploads, atomic writes, voice staging). */
async function partialFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const folder of ['assets', 'audio', 'voices']) {
    const names = await readdir(join(dataDir, folder)).catch(() => [] as string[]);
    found.push(
      ...names.filter((name) => name.endsWith('.tmp') || name.startsWith('.staging-') || name.startsWith('.import-')).map((name) => `${folder}/${name}`),
    );
  }
  return found;
}

describe('a full data disk', { skip }, () => {
  let server: RunningTimbre;
  let admin: CreatedKey;
  const call = (method: string, path: string, options: { json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}) =>
    request(server.url, method, path, { key: admin.key, ...options });
  const generate = (text: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/generate/preset', { json: { voice_id: 'pico:en-US', text, language: 'en-US', ...extra } });
  const upload = () => postMultipart(server.url, admin.key, '/api/assets', [{ name: 'tone.wav', bytes: SINE }]);
  const start = async () => {
    server = await startTimbre({ dataDir });
  };
  const kill = async () => {
    const exited = new Promise((resolve) => server.process.once('exit', resolve));
    server.process.kill('SIGKILL');
    await exited;
  };
  const pendingWrites = async () => (await call('GET', '/api/system/status')).body.storage.pending_writes as number;
  const assertFull = (response: { status: number; body: any }, what: string) => {
    assert.equal(response.status, 507, `${what}: ${JSON.stringify(response.body)}`);
    assert.equal(response.body.error.code, 'insufficient_storage');
    assert.match(response.body.error.message, /disk is full/);
    assert.doesNotMatch(JSON.stringify(response.body.error.details), /\//, 'no paths in the details');
  };

  const longForm = async () => {
    const started = await call('POST', '/api/generate/clone-chunked', { json: { voice_id: 'pico:en-US', text: THREE_LINES, language: 'en-US' } });
    assert.equal(started.status, 202, started.text);
    return started.body.task_id as string;
  };
  const taskEnded = (taskId: string) =>
    until(`task ${taskId} to end`, async () => {
      const { body } = await call('GET', `/api/tasks/${taskId}`);
      return body.status === 'queued' || body.status === 'running' ? undefined : body;
    });
  const signIn = () => request(server.url, 'POST', '/api/session', { json: { api_key: admin.key } });
  const cookieOf = (response: { headers: Record<string, string | string[] | undefined> }) =>
    String([response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('timbre_session='))).split(';')[0]!;
  /** A request the studio signs with its session cookie (changes carry its own Origin). */
  const asStudio = (method: string, path: string, cookie: string) => request(server.url, method, path, { headers: { cookie, origin: server.url } });
  /** Whether the session of a cookie is live (an ended one reads as signed out). */
  const signedIn = async (cookie: string) => {
    const session = await asStudio('GET', '/api/session', cookie);
    return session.status === 200 && session.body.signed_in === true;
  };

  /** What existed before the disk filled up, and must survive it. */
  const existing: {
    taskId?: string;
    audio?: string;
    assetId?: string;
    keyId?: string;
    doomedKeyId?: string;
    categoryId?: string;
    voiceId?: string;
    cookie?: string;
    longFormId?: string;
  } = {};
  /** What the writes made once space returned, to be found again after a restart. */
  const written: { cookie?: string } = {};
  const jobs: { slow?: string; queued?: string; longForm?: string } = {};
  const events: any[] = [];
  let socket: WebSocket;

  before(async () => {
    await start();
    admin = await createKeyWithCli(dataDir, 'admin', LIMITS);
    const spoken = await generate('This existed before the disk was full.');
    assert.equal(spoken.status, 200);
    existing.taskId = String(spoken.headers['x-task-id']);
    existing.audio = spoken.text;
    existing.assetId = (await upload()).body.asset_id;
    existing.keyId = (await call('POST', '/api/api-keys', { json: { name: 'before' } })).body.key_id;
    existing.doomedKeyId = (await call('POST', '/api/api-keys', { json: { name: 'doomed' } })).body.key_id;
    existing.categoryId = (await call('POST', '/api/categories', { json: { name: 'Before' } })).body.id;
    const imported = await call('POST', '/api/voices/import', { body: voiceArchive('voice_before1'), headers: { 'content-type': 'application/zip' } });
    existing.voiceId = imported.body.imported[0];
    existing.cookie = cookieOf(await signIn());
    existing.longFormId = await longForm();
    assert.equal((await taskEnded(existing.longFormId)).status, 'completed');
    socket = openEventSocket(server.url, { key: admin.key });
    socket.on('message', (raw) => events.push(JSON.parse(String(raw))));
    // The service is killed further on; the socket then just ends.
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('open', resolve));
  });

  after(async () => {
    socket?.close();
    freeDisk();
    await server?.stop();
    execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  test('jobs that run out of space fail with insufficient_storage, and their tasks and events say so', async () => {
    // A slow generation runs while the disk fills up; a second one waits behind it.
    const slow = await generate(LONG_TEXT, { voice_id: SLOW_VOICE, language: 'en', async: true });
    const queued = await generate('Queued behind the slow one.', { async: true });
    jobs.longForm = await longForm();
    assert.equal(slow.status, 202);
    assert.equal(queued.status, 202);
    fillDisk();
    jobs.slow = slow.body.task_id;
    jobs.queued = queued.body.task_id;
    for (const taskId of [jobs.slow, jobs.queued]) {
      const task = await until(`task ${taskId} to end`, async () => {
        const { body } = await call('GET', `/api/tasks/${taskId}`);
        return body.status === 'queued' || body.status === 'running' ? undefined : body;
      });
      assert.equal(task.status, 'failed');
      assert.equal(task.error.code, 'insufficient_storage');
      assert.equal(task.audio_url, null);
      const failed = await until(`job.failed for ${taskId}`, async () => events.find((event) => event.type === 'job.failed' && event.data.task_id === taskId));
      assert.equal(failed.data.error.code, 'insufficient_storage');
    }
    // The long-form task behind them stops at its first chunk; it resumes once there is room (see below).
    const stopped = await taskEnded(jobs.longForm);
    assert.equal(stopped.status, 'failed');
    assert.ok(stopped.chunks.every((chunk: any) => chunk.state === 'failed' && chunk.error.code === 'insufficient_storage'));
    // The ends of the jobs could not be written: they wait in memory.
    assert.ok((await pendingWrites()) > 0);
    assert.equal(server.process.exitCode, null);
  });

  test('writes answer 507 insufficient_storage and leave no partial files', async () => {
    fillDisk();
    assertFull(await generate('Refused while the disk is full.'), 'generation');
    assertFull(await generate('Refused while the disk is full.', { async: true }), 'async generation');
    assertFull(await upload(), 'upload');
    assertFull(await call('POST', '/api/api-keys', { json: { name: 'during' } }), 'key');
    assertFull(await call('POST', '/api/design/create', { json: { name: 'During', description: 'a calm female voice' } }), 'design');
    assertFull(
      await call('POST', '/api/voices/import', { body: voiceArchive('voice_fullDisk1'), headers: { 'content-type': 'application/zip' } }),
      'voice import',
    );
    assert.deepEqual(await partialFiles(), []);
    assert.equal(server.process.exitCode, null);
  });

  test('reads keep answering while the disk is full', async () => {
    fillDisk();
    const voices = await call('GET', '/api/voices?limit=5');
    assert.equal(voices.status, 200);
    assert.ok(voices.body.total > 0);
    assert.equal((await call('GET', '/api/system/info')).status, 200);
    const task = await call('GET', `/api/tasks/${existing.taskId}`);
    assert.equal(task.status, 200);
    assert.equal(task.body.status, 'completed');
    const audio = await call('GET', `/api/tasks/${existing.taskId}/audio`);
    assert.equal(audio.status, 200);
    assert.equal(audio.text, existing.audio);
    assert.equal((await call('GET', `/api/assets/${existing.assetId}`)).status, 200);
    const keys = await call('GET', '/api/api-keys');
    assert.ok(keys.body.keys.some((key: { key_id: string }) => key.key_id === existing.keyId));
    assert.equal(server.process.exitCode, null);
  });

  /** The categories users made (the library's built-in ones are not written by anyone). */
  const userCategories = async () =>
    (await call('GET', '/api/categories')).body.categories
      .filter((category: { built_in: boolean }) => !category.built_in)
      .map((category: { name: string }) => category.name);

  /** Everything the writes refused on a full disk would have changed, as it was before. */
  const assertAsBefore = async (when: string) => {
    assert.deepEqual((await call('GET', '/api/favorites')).body.voices, [], `${when}: favorites`);
    assert.deepEqual(await userCategories(), ['Before'], `${when}: categories`);
    assert.deepEqual((await call('GET', '/api/voices/pico:en-US')).body.tags, [], `${when}: tags`);
    assert.equal((await call('GET', `/api/voices/${existing.voiceId}`)).status, 200, `${when}: voice`);
    assert.equal((await call('GET', `/api/timeline/${existing.longFormId}`)).body.version, 0, `${when}: layout`);
    const keys: { key_id: string; name: string; revoked_at: string | null }[] = (await call('GET', '/api/api-keys')).body.keys;
    const key = keys.find((candidate) => candidate.key_id === existing.keyId);
    assert.deepEqual([key?.name, key?.revoked_at], ['before', null], `${when}: key`);
    assert.ok(
      keys.some((candidate) => candidate.key_id === existing.doomedKeyId),
      `${when}: deleted key`,
    );
    assert.ok(await signedIn(existing.cookie!), `${when}: session`);
    assert.equal((await call('GET', `/api/assets/${existing.assetId}`)).status, 200, `${when}: asset`);
  };

  /** The timeline as read, with its second block moved: a layout to save. */
  const movedLayout = async () => {
    const layout = (await call('GET', `/api/timeline/${existing.longFormId}`)).body;
    layout.blocks[1].start += 0.5;
    return layout;
  };

  test('every route family that writes answers 507 on a full disk, and nothing it refused appears later', async () => {
    fillDisk();
    const layout = await movedLayout();
    const refused = {
      favorite: await call('POST', '/api/favorites/pico:en-US'),
      'new category': await call('POST', '/api/categories', { json: { name: 'During' } }),
      'category delete': await call('DELETE', `/api/categories/${existing.categoryId}`),
      'voice update': await call('PUT', '/api/voices/pico:en-US', { json: { tags: ['during'] } }),
      'voice delete': await call('DELETE', `/api/voices/${existing.voiceId}`),
      layout: await call('POST', `/api/timeline/${existing.longFormId}/layout`, { json: layout }),
      'track import': await call('POST', `/api/timeline/${existing.longFormId}/import-track`, { json: { asset_id: existing.assetId } }),
      'key rename': await call('PATCH', `/api/api-keys/${existing.keyId}`, { json: { name: 'renamed' } }),
      'key revoke': await call('POST', `/api/api-keys/${existing.keyId}/revoke`),
      'key delete': await call('DELETE', `/api/api-keys/${existing.doomedKeyId}`),
      'sign-in': await signIn(),
      'sign-out': await asStudio('DELETE', '/api/session', existing.cookie!),
      'asset delete': await call('DELETE', `/api/assets/${existing.assetId}`),
    };
    for (const [what, response] of Object.entries(refused)) assertFull(response, what);
    await assertAsBefore('while the disk is full');
  });

  /** The same writes, once there is room: each answers success. */
  const writeEveryFamily = async () => {
    assert.deepEqual((await call('POST', '/api/favorites/pico:en-US')).body, { voice_id: 'pico:en-US', favorite: true });
    assert.equal((await call('POST', '/api/categories', { json: { name: 'After' } })).status, 201);
    assert.equal((await call('DELETE', `/api/categories/${existing.categoryId}`)).status, 204);
    assert.equal((await call('PUT', '/api/voices/pico:en-US', { json: { tags: ['after'] } })).status, 200);
    assert.equal((await call('DELETE', `/api/voices/${existing.voiceId}`)).status, 204);
    const saved = await call('POST', `/api/timeline/${existing.longFormId}/layout`, { json: await movedLayout() });
    assert.equal(saved.status, 200, saved.text);
    assert.equal((await call('PATCH', `/api/api-keys/${existing.keyId}`, { json: { name: 'renamed' } })).status, 200);
    assert.equal((await call('POST', `/api/api-keys/${existing.keyId}/revoke`)).status, 200);
    assert.equal((await call('DELETE', `/api/api-keys/${existing.doomedKeyId}`)).status, 204);
    const opened = await signIn();
    assert.equal(opened.status, 201);
    written.cookie = cookieOf(opened);
    assert.equal((await asStudio('DELETE', '/api/session', existing.cookie!)).status, 204);
    assert.equal((await call('DELETE', `/api/assets/${existing.assetId}`)).status, 204);
  };

  /** What `writeEveryFamily` did, read back (after a restart). */
  const assertEveryFamilyWritten = async () => {
    assert.deepEqual(
      (await call('GET', '/api/favorites')).body.voices.map((voice: { id: string }) => voice.id),
      ['pico:en-US'],
    );
    assert.deepEqual(await userCategories(), ['After']);
    assert.deepEqual((await call('GET', '/api/voices/pico:en-US')).body.tags, ['after']);
    assert.equal((await call('GET', `/api/voices/${existing.voiceId}`)).status, 404);
    assert.equal((await call('GET', `/api/timeline/${existing.longFormId}`)).body.version, 1);
    const keys: { key_id: string; name: string; revoked_at: string | null }[] = (await call('GET', '/api/api-keys')).body.keys;
    const key = keys.find((candidate) => candidate.key_id === existing.keyId);
    assert.equal(key?.name, 'renamed');
    assert.notEqual(key?.revoked_at, null);
    assert.ok(!keys.some((candidate) => candidate.key_id === existing.doomedKeyId));
    assert.ok(await signedIn(written.cookie!), 'the session opened once there was room');
    assert.ok(!(await signedIn(existing.cookie!)), 'the session signed out of once there was room');
    assert.equal((await call('GET', `/api/assets/${existing.assetId}`)).status, 404);
  };

  test('once space returns, what waited in memory reaches SQLite and the same writes succeed', async () => {
    freeDisk();
    await until('the kept writes to land', async () => ((await pendingWrites()) === 0 ? true : undefined), 30_000);
    await assertAsBefore('once space returns');
    // The long-form task that stopped for lack of space goes on by itself.
    const resumed = await until('the long-form task to resume and complete', async () => {
      const { body } = await call('GET', `/api/tasks/${jobs.longForm}`);
      return body.status === 'completed' ? body : undefined;
    });
    assert.ok(resumed.chunks.every((chunk: any) => chunk.state === 'completed' && chunk.selected_take === 1));
    await writeEveryFamily();
    assert.equal((await generate('Spoken once there is room again.')).status, 200);
    assert.equal((await upload()).status, 201);
    assert.equal((await call('POST', '/api/api-keys', { json: { name: 'after' } })).status, 201);
    assert.equal((await call('POST', '/api/design/create', { json: { name: 'After', description: 'a calm female voice' } })).status, 201);
    assert.equal(
      (await call('POST', '/api/voices/import', { body: voiceArchive('voice_fullDisk1'), headers: { 'content-type': 'application/zip' } })).status,
      200,
    );
    // Killed, so nothing is written on the way out: the failed jobs were recorded by the retries.
    await kill();
    await start();
    for (const taskId of [jobs.slow, jobs.queued]) {
      const { body } = await call('GET', `/api/tasks/${taskId}`);
      assert.equal(body.status, 'failed');
      assert.equal(body.error.code, 'insufficient_storage');
    }
    assert.equal((await call('GET', `/api/tasks/${existing.taskId}/audio`)).text, existing.audio);
    await assertEveryFamilyWritten();
    assert.equal((await call('GET', `/api/tasks/${jobs.longForm}`)).body.status, 'completed');
  });

  test('a restart on a full disk starts, recovers the interrupted job and answers reads', async () => {
    const interrupted = await generate(LONG_TEXT, { voice_id: SLOW_VOICE, language: 'en', async: true });
    await until('the slow job to run', async () =>
      (await call('GET', `/api/tasks/${interrupted.body.task_id}`)).body.status === 'running' ? true : undefined,
    );
    await kill();
    fillDisk();
    await start();
    const task = await call('GET', `/api/tasks/${interrupted.body.task_id}`);
    assert.equal(task.body.status, 'failed');
    assert.equal(task.body.error.code, 'interrupted');
    assert.equal((await call('GET', '/api/voices?limit=1')).status, 200);
    assert.equal((await call('GET', `/api/tasks/${existing.taskId}/audio`)).text, existing.audio);
    assertFull(await generate('Refused after a restart on a full disk.'), 'generation after restart');
  });

  test('a database closed cleanly opens on a full disk too: reads answer, writes wait for space; presets without rows still speak', async () => {
    freeDisk();
    await until('the kept writes to land', async () => ((await pendingWrites()) === 0 ? true : undefined), 30_000);
    await server.stop();
    // As on a first start that finds the disk full: no preset has its row yet.
    const db = new Database(join(dataDir, 'timbre.db'));
    db.prepare("DELETE FROM voices WHERE type = 'preset'").run();
    db.close();
    fillDisk();
    await start();
    const status = await call('GET', '/api/system/status');
    assert.equal(status.body.storage.database_locking, 'exclusive');
    assert.equal((await call('GET', `/api/tasks/${existing.taskId}`)).body.status, 'completed');
    assert.equal((await call('GET', '/api/system/info')).status, 200);
    assertFull(await call('POST', '/api/api-keys', { json: { name: 'refused' } }), 'key after a clean restart');
    const presets = await call('GET', '/api/voices?type=preset&limit=500');
    assert.ok(
      presets.body.voices.some((voice: { id: string }) => voice.id === 'pico:en-US'),
      'the engines’ presets are listed',
    );
    assert.equal((await call('GET', '/api/voices/pico:en-US')).status, 200);
    assertFull(await generate('A preset whose row could not be written.'), 'preset generation');
    assertFull(await call('POST', '/api/favorites/pico:en-US'), 'favorite of a preset without its row');
    freeDisk();
    await until('the preset rows to land', async () => ((await pendingWrites()) === 0 ? true : undefined), 15_000);
    assert.deepEqual((await call('POST', '/api/favorites/pico:en-US')).body, { voice_id: 'pico:en-US', favorite: true });
    assert.equal((await call('GET', '/api/voices?type=preset&limit=1')).body.total, presets.body.total);
    assert.equal((await call('POST', '/api/api-keys', { json: { name: 'accepted' } })).status, 201);
    assert.equal((await generate('Spoken after the disk was freed.')).status, 200);
  });
});
