// Starts the real service: an install's progress is followed on /ws, as the studio follows it.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type WebSocket from 'ws';
import { TEST_CATALOG_ENV } from '../../../../src/platform/models/catalog.js';
import { openEventSocket } from '../../../helpers/event-socket.js';
import { startModelMirrors, STALLED_MODEL, type ModelMirrors } from '../../../helpers/stalled-model.js';
import { createKeyWithCli, GENEROUS_LIMITS, removeDir, request, startTimbre, tempDir, type CreatedKey, type RunningTimbre } from '../../../helpers/timbre.js';

const KITTEN = 'kitten-nano-en-v0_2-fp16';

/** The job events of one key, in order, with a wait for the first that matches. */
async function jobEvents(server: RunningTimbre, key: string) {
  const socket: WebSocket = openEventSocket(server.url, { key });
  const events: { type: string; data: Record<string, any> }[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (raw) => {
    events.push(JSON.parse(String(raw)));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const until = async (matches: (event: (typeof events)[number]) => boolean) => {
    for (;;) {
      const found = events.find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { events, until, close: () => socket.close() };
}

describe('neural models installed and removed over HTTP', () => {
  let root: string;
  let mirrors: ModelMirrors;
  let modelsDir: string;
  let server: RunningTimbre;
  let admin: CreatedKey;

  const api = (method: string, path: string, options: { key?: string; json?: unknown } = {}) =>
    request(server.url, method, path, { key: admin.key, ...options });
  const model = async (id: string) => (await api('GET', '/api/models')).body.models.find((entry: { id: string }) => entry.id === id);
  const kittenVoices = async () =>
    (await api('GET', '/api/voices?type=preset&limit=500')).body.voices.filter(
      (voice: { engine: string; available: boolean }) => voice.engine === 'kitten' && voice.available,
    );

  before(async () => {
    root = await tempDir('timbre-models-http-');
    mirrors = await startModelMirrors(root);
    modelsDir = join(root, 'models');
    // TIMBRE_MODELS_FROM is set in CI; empty means unset, so these installs download.
    server = await startTimbre({ env: { [TEST_CATALOG_ENV]: mirrors.catalogFile, TIMBRE_MODELS_FROM: '', TIMBRE_MODELS_DIR: modelsDir } });
    admin = await createKeyWithCli(server.dataDir, 'admin', GENEROUS_LIMITS);
  });
  after(async () => {
    // Each part only if the set-up got that far, so a failed start still lets the process end.
    if (server) await server.stop().finally(() => removeDir(server.dataDir));
    await mirrors?.close();
    if (root) await removeDir(root);
  });

  test('the list shows every catalog model with its kind, languages, size and license, and what is installed', async () => {
    const listed = await api('GET', '/api/models');
    assert.equal(listed.status, 200);
    const kitten = listed.body.models.find((entry: { id: string }) => entry.id === KITTEN);
    assert.equal(kitten.kind, 'synthesizer');
    assert.equal(kitten.installed, false);
    assert.equal(kitten.state, 'not installed');
    assert.equal(kitten.install, null);
    assert.equal(kitten.license, 'Apache-2.0');
    assert.deepEqual(kitten.languages, ['en-US']);
    const silero = listed.body.models.find((entry: { id: string }) => entry.id === 'silero-vad');
    assert.equal(silero.kind, 'vad');
    assert.ok(silero.download_bytes > 0, 'a file the catalog pins by size has its download size');
  });

  test('an unknown model is 404; removing a model that is not installed is 409', async () => {
    const install = await api('POST', '/api/models/no-such-model/install');
    assert.equal(install.status, 404);
    assert.equal(install.body.error.code, 'model_not_found');
    assert.equal((await api('DELETE', '/api/models/no-such-model')).body.error.code, 'model_not_found');
    const remove = await api('DELETE', `/api/models/${KITTEN}`);
    assert.equal(remove.status, 409);
    assert.equal(remove.body.error.code, 'model_not_installed');
  });

  test('a key without models:manage may list the models but neither install nor remove one', async () => {
    const reader = await api('POST', '/api/api-keys', { json: { name: 'reader', scopes: ['system:read'] } });
    assert.equal(reader.status, 201);
    assert.equal((await api('GET', '/api/models', { key: reader.body.key })).status, 200);
    for (const [method, path] of [
      ['POST', `/api/models/${KITTEN}/install`],
      ['DELETE', `/api/models/${KITTEN}`],
    ] as const) {
      const refused = await api(method, path, { key: reader.body.key });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'insufficient_scope');
      assert.equal(refused.body.error.details.required_scope, 'models:manage');
    }
  });

  test('an install runs as a job whose progress arrives on /ws, and its voices join the library', async () => {
    const events = await jobEvents(server, admin.key);
    try {
      const accepted = await api('POST', `/api/models/${KITTEN}/install`);
      assert.equal(accepted.status, 202);
      assert.equal(accepted.body.model_id, KITTEN);
      const jobId = accepted.body.job_id;
      const ended = await events.until((event) => event.data.job_id === jobId && ['job.completed', 'job.failed', 'job.cancelled'].includes(event.type));
      assert.equal(ended.type, 'job.completed', JSON.stringify(ended.data));
      assert.equal(ended.data.model_id, KITTEN);
      const downloads = events.events.filter(
        (event) => event.data.job_id === jobId && event.type === 'job.progress' && event.data.downloaded_bytes !== undefined,
      );
      assert.ok(downloads.length > 0, 'download progress was reported');
      const last = downloads.at(-1)!.data;
      assert.equal(last.downloaded_bytes, last.total_bytes, 'the last report has the whole archive');
    } finally {
      events.close();
    }
    const kitten = await model(KITTEN);
    assert.equal(kitten.installed, true);
    assert.ok(kitten.size_bytes > 0);
    assert.ok((await kittenVoices()).length > 0, 'the kitten voices are listed at once');
    const again = await api('POST', `/api/models/${KITTEN}/install`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'model_installed');
  });

  test('a second install while one runs answers the same job; cancelling it leaves no file behind', async () => {
    const events = await jobEvents(server, admin.key);
    try {
      const first = await api('POST', `/api/models/${STALLED_MODEL}/install`);
      assert.equal(first.status, 202);
      const second = await api('POST', `/api/models/${STALLED_MODEL}/install`);
      assert.equal(second.body.job_id, first.body.job_id);
      await events.until((event) => event.data.job_id === first.body.job_id && event.data.downloaded_bytes > 0);
      assert.equal((await model(STALLED_MODEL)).install.job_id, first.body.job_id);
      const busy = await api('DELETE', `/api/models/${STALLED_MODEL}`);
      assert.equal(busy.status, 409);
      assert.equal(busy.body.error.code, 'model_install_running');
      const cancelled = await api('POST', '/api/job/cancel', { json: { job_id: first.body.job_id } });
      assert.equal(cancelled.status, 200, cancelled.text);
      await events.until((event) => event.data.job_id === first.body.job_id && event.type === 'job.cancelled');
    } finally {
      events.close();
    }
    assert.deepEqual(
      (await readdir(modelsDir)).filter((name) => name.includes(STALLED_MODEL)),
      [],
      'neither the partial download nor a model folder is left',
    );
    const stalled = await model(STALLED_MODEL);
    assert.equal(stalled.installed, false);
    assert.equal(stalled.install, null);
  });

  test('removing a model deletes its files and its voices leave the library', async () => {
    const removed = await api('DELETE', `/api/models/${KITTEN}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { model_id: KITTEN, removed: true });
    assert.equal((await readdir(modelsDir)).includes(KITTEN), false);
    assert.equal((await model(KITTEN)).installed, false);
    assert.deepEqual(await kittenVoices(), []);
  });
});
