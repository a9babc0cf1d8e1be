// Black-box (the service as a process): kill -9 and a restart of the service, and progress on /ws.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type WebSocket from 'ws';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { createKeyWithCli, removeDir, request, serverWithAdmin, startTimbre, tempDir, type Response } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
/** Long enough that Festival's HTS voice needs several seconds, so the job can be seen running. */
const LONG_TEXT = Array.from({ length: 30 }, (_, index) => `This is sentence number ${index + 1} of a long text that keeps the engine busy.`).join(' ');
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';
const GENERATE_LIMITS = [
  '--rate-limit',
  'tts:generate=1000',
  '--rate-limit',
  'system:read=1000',
  '--rate-limit',
  'voices:read=1000',
  '--rate-limit',
  'ws:connect=100',
];

/** Collects the events of one WebSocket connection. */
async function listen(url: string, key: string): Promise<{ events: any[]; socket: WebSocket; until(type: string, taskId?: string): Promise<any> }> {
  const socket = openEventSocket(url, { key: key });
  const events: any[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (raw) => {
    events.push(JSON.parse(String(raw)));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const until = async (type: string, taskId?: string) => {
    for (;;) {
      const found = events.find((event) => event.type === type && (!taskId || event.data.task_id === taskId));
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { events, socket, until };
}

describe('generation, tasks and the compute queue', () => {
  const fixture = serverWithAdmin({ keyArgs: GENERATE_LIMITS });
  const generate = (type: string, json: Record<string, unknown>) =>
    request(fixture.server.url, 'POST', `/api/generate/${type}`, { key: fixture.admin.key, json });
  const get = (path: string) => request(fixture.server.url, 'GET', path, { key: fixture.admin.key });

  test('a preset voice speaks in every format; the bytes decode to the stated duration and the task holds the same audio', async () => {
    for (const format of ['wav', 'mp3', 'ogg', 'flac', 'pcm']) {
      const response = await generate('preset', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US', format });
      assert.equal(response.status, 200, `${format}: ${response.text}`);
      const duration = Number(response.headers['x-audio-duration']);
      assert.ok(duration > 1 && duration < 6, `${format}: ${duration}`);
      const taskId = String(response.headers['x-task-id']);
      const stored = await rawBody(fixture.server.url, `/api/tasks/${taskId}/audio`, fixture.admin.key);
      if (format === 'pcm') {
        // Raw 16-bit mono at the voice's 16 kHz.
        assert.ok(Math.abs(stored.length / 2 / 16000 - duration) < 0.01, `pcm: ${stored.length} bytes vs ${duration} s`);
      } else {
        const probed = await probeAudio(stored);
        assert.ok(Math.abs((probed.duration ?? 0) - duration) < 0.1, `${format}: probed ${probed.duration} vs ${duration}`);
      }
      const task = await get(`/api/tasks/${taskId}`);
      assert.equal(task.body.status, 'completed');
      assert.equal(task.body.voice_id, 'pico:en-US');
      assert.equal(task.body.text, SENTENCE);
      assert.equal(task.body.format, format);
    }
  });

  test('bad requests get clear errors', async () => {
    const unknown = await generate('preset', { voice_id: 'pico:xx-XX', text: SENTENCE, language: 'en-US' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'voice_not_found');
    const wrongRoute = await generate('clone', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US' });
    assert.equal(wrongRoute.body.error.code, 'voice_type_mismatch');
    const wrongLanguage = await generate('preset', { voice_id: 'pico:en-US', text: 'Hallo Welt.', language: 'de-DE' });
    assert.equal(wrongLanguage.status, 422);
    assert.equal(wrongLanguage.body.error.code, 'language_not_supported');
    const tooLong = await generate('preset', { voice_id: 'pico:en-US', text: 'a'.repeat(5001), language: 'en-US' });
    assert.equal(tooLong.status, 413);
    assert.equal(tooLong.body.error.code, 'text_too_long');
    const badFields = await generate('preset', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US', format: 'aiff', pitch: 3 });
    assert.equal(badFields.status, 400);
    const fields = badFields.body.error.details.fields.map((field: { field: string }) => field.field).sort();
    assert.deepEqual(fields, ['body.format', 'body.pitch']);
  });

  test('an async generation answers 202 and the WebSocket sees queued, started, progress and completed', async () => {
    const ws = await listen(fixture.server.url, fixture.admin.key);
    const accepted = await generate('preset', { voice_id: SLOW_VOICE, text: LONG_TEXT.slice(0, 1500), language: 'en-US', async: true });
    assert.equal(accepted.status, 202);
    const taskId = accepted.body.task_id;
    const completed = await ws.until('job.completed', taskId);
    const kinds = ws.events.filter((event) => event.data?.task_id === taskId).map((event) => event.type);
    assert.deepEqual([...new Set(kinds)], ['job.queued', 'job.started', 'job.progress', 'job.completed']);
    assert.equal(completed.data.audio_url, `/api/tasks/${taskId}/audio`);
    assert.ok(completed.data.duration > 0);
    ws.socket.close();
  });

  test('with concurrency 1 a second long generation waits at position 1, a sentence runs beside it (quick lane); each completes with its own audio', async () => {
    const first = await generate('preset', { voice_id: SLOW_VOICE, text: LONG_TEXT.slice(0, 1200), language: 'en-US', async: true });
    const second = await generate('preset', { voice_id: 'pico:en-US', text: LONG_TEXT.slice(0, 700), language: 'en-US', async: true });
    const sentence = await generate('preset', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US', async: true });
    const status = await get('/api/queue/status');
    const queued = status.body.queued.find((job: { task_id: string }) => job.task_id === second.body.task_id);
    assert.equal(queued?.position, 1, JSON.stringify(status.body));
    assert.ok(!status.body.queued.some((job: { task_id: string }) => job.task_id === sentence.body.task_id), JSON.stringify(status.body));
    const results = await Promise.all([first, second, sentence].map((accepted) => waitForTask(get, accepted.body.task_id)));
    for (const task of results) assert.equal(task.status, 'completed');
    assert.ok(results[0].duration > results[1].duration && results[1].duration > results[2].duration * 3, 'each task has the audio of its own text');
  });

  test('cancelling: a queued job is removed, a running one stops with job.cancelled and leaves no file', async () => {
    const ws = await listen(fixture.server.url, fixture.admin.key);
    const running = await generate('preset', { voice_id: SLOW_VOICE, text: LONG_TEXT, language: 'en-US', async: true });
    const queued = await generate('preset', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US', async: true });
    const cancelQueued = await request(fixture.server.url, 'POST', '/api/job/cancel', { key: fixture.admin.key, json: { job_id: queued.body.job_id } });
    assert.equal(cancelQueued.status, 200);
    assert.deepEqual(cancelQueued.body.cancelled, [{ job_id: queued.body.job_id, task_id: queued.body.task_id, kind: 'synthesis', state: 'cancelled' }]);
    const status = await get('/api/queue/status');
    assert.ok(!status.body.queued.some((job: { job_id: string }) => job.job_id === queued.body.job_id));

    await ws.until('job.started', running.body.task_id);
    const cancel = await request(fixture.server.url, 'POST', '/api/generation/cancel', { key: fixture.admin.key, json: { task_id: running.body.task_id } });
    assert.equal(cancel.status, 200);
    assert.equal(cancel.body.cancelled[0].state, 'cancelled', 'the answer tells the state after the cancel, not before it');
    await ws.until('job.cancelled', running.body.task_id);
    const task = await waitForTask(get, running.body.task_id);
    assert.equal(task.status, 'cancelled');
    assert.equal(task.audio_url, null);
    const files = await readdir(join(fixture.server.dataDir, 'audio')).catch(() => []);
    assert.ok(!files.some((name) => name.includes(running.body.task_id)), files.join(', '));
    ws.socket.close();
  });

  test('a task and its audio are visible only to the key that created it', async () => {
    const other = await createKeyWithCli(fixture.server.dataDir, 'other app');
    const made = await generate('preset', { voice_id: 'pico:en-US', text: SENTENCE, language: 'en-US' });
    const taskId = String(made.headers['x-task-id']);
    for (const path of [`/api/tasks/${taskId}`, `/api/tasks/${taskId}/audio`]) {
      const foreign = await request(fixture.server.url, 'GET', path, { key: other.key });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.code, 'task_not_found');
    }
  });
});

describe('a restart during a generation', () => {
  test('leaves the task in a terminal state and no partial audio file', async () => {
    const dataDir = await tempDir();
    const admin = await createKeyWithCli(dataDir, 'admin', GENERATE_LIMITS);
    const first = await startTimbre({ dataDir });
    const ws = await listen(first.url, admin.key);
    const accepted = await request(first.url, 'POST', '/api/generate/preset', {
      key: admin.key,
      json: { voice_id: SLOW_VOICE, text: LONG_TEXT, language: 'en-US', async: true },
    });
    await ws.until('job.started', accepted.body.task_id);
    ws.socket.terminate();
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));

    const second = await startTimbre({ dataDir });
    try {
      const task = await request(second.url, 'GET', `/api/tasks/${accepted.body.task_id}`, { key: admin.key });
      assert.equal(task.body.status, 'failed');
      assert.equal(task.body.error.code, 'interrupted');
      const files = await readdir(join(dataDir, 'audio')).catch(() => []);
      assert.deepEqual(files, []);
    } finally {
      await second.stop();
      await removeDir(dataDir);
    }
  });
});

async function waitForTask(get: (path: string) => Promise<Response>, taskId: string): Promise<any> {
  for (;;) {
    const task = await get(`/api/tasks/${taskId}`);
    if (['completed', 'failed', 'cancelled'].includes(task.body.status)) return task.body;
    await sleep(100);
  }
}

async function rawBody(base: string, path: string, key: string): Promise<Buffer> {
  const response = await fetch(new URL(path, base), { headers: { 'x-api-key': key } });
  return Buffer.from(await response.arrayBuffer());
}
