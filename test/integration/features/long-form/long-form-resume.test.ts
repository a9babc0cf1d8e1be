// Black-box (the service as a process): restarts and kill -9 of the service.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKeyWithCli, removeDir, request, startTimbre, tempDir, type CreatedKey, type RunningTimbre } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

const LIMITS = ['--rate-limit', 'tts:generate=10000', '--rate-limit', 'task_reads=100000', '--rate-limit', 'ws:connect=100'];
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';
const THIRTY = Array.from({ length: 30 }, (_, index) => `Sentence ${index + 1} tells a short part of the story.`).join(' ');

interface Chunk {
  index: number;
  state: string;
  selected_take: number;
  duration: number | null;
}

async function task(server: RunningTimbre, key: string, taskId: string): Promise<{ status: string; chunks: Chunk[]; error: unknown }> {
  const response = await request(server.url, 'GET', `/api/tasks/${taskId}`, { key });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 120, everyMs = 50): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function chunkBytes(server: RunningTimbre, key: string, taskId: string, index: number): Promise<{ status: number; bytes: Buffer; take: string | null }> {
  const response = await fetch(new URL(`/api/audio/chunk/${taskId}/${index}`, server.url), { headers: { 'x-api-key': key } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), take: response.headers.get('x-chunk-take') };
}

/**
 * Starts a 30-chunk task, stops the service once a few chunks are done, starts it again on the same
 * data directory and checks that the task goes on from where it stopped.
 */
async function resumesAfter(stop: (server: RunningTimbre) => Promise<void>): Promise<void> {
  const dataDir = await tempDir();
  after(() => removeDir(dataDir));
  const admin: CreatedKey = await createKeyWithCli(dataDir, 'admin', LIMITS);
  const first = await startTimbre({ dataDir });
  const started = await request(first.url, 'POST', '/api/generate/clone-chunked', {
    key: admin.key,
    json: { voice_id: SLOW_VOICE, text: THIRTY, language: 'en-US' },
  });
  assert.equal(started.status, 202, started.text);
  const taskId: string = started.body.task_id;

  const before = await until('three chunks', async () => {
    const current = await task(first, admin.key, taskId);
    return current.chunks.filter((chunk) => chunk.state === 'completed').length >= 3 ? current : undefined;
  });
  const done = before.chunks.filter((chunk) => chunk.state === 'completed');
  assert.ok(done.length < 30, 'the service stops while chunks remain');
  const spoken = new Map<number, Buffer>();
  for (const chunk of done) spoken.set(chunk.index, (await chunkBytes(first, admin.key, taskId, chunk.index)).bytes);
  await stop(first);

  const second = await startTimbre({ dataDir });
  try {
    const resumed = await until('the task to end', async () => {
      const current = await task(second, admin.key, taskId);
      return ['completed', 'failed', 'cancelled'].includes(current.status) ? current : undefined;
    });
    assert.equal(resumed.status, 'completed', JSON.stringify(resumed.error));
    assert.ok(resumed.chunks.every((chunk) => chunk.state === 'completed' && chunk.selected_take === 1 && (chunk.duration ?? 0) > 0));
    for (const chunk of resumed.chunks) {
      const audio = await chunkBytes(second, admin.key, taskId, chunk.index);
      assert.equal(audio.status, 200, `chunk ${chunk.index}`);
      const earlier = spoken.get(chunk.index);
      if (earlier) assert.ok(audio.bytes.equals(earlier), `chunk ${chunk.index}, done before the stop, keeps its file`);
    }
    const merged = await request(second.url, 'POST', '/api/generate/merge-chunks', { key: admin.key, json: { task_id: taskId } });
    assert.equal(merged.status, 200);
  } finally {
    await second.stop();
  }
}

/** The engine host processes of a service: its children that run the engine worker (compiled, or from sources). */
async function engineHostPids(servicePid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // After "pid (command) ": the state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (parent === servicePid && /engines\/host\/worker\.[jt]s\0/.test(command)) pids.push(Number(entry));
  }
  return pids;
}

describe('long-form tasks across a restart', () => {
  test('after kill -9 mid-task the task resumes from its first unfinished chunk on start; finished chunks keep their audio', async () => {
    await resumesAfter(async (server) => {
      const exited = new Promise((resolve) => server.process.once('exit', resolve));
      server.process.kill('SIGKILL');
      await exited;
    });
  });

  test('after a graceful stop mid-task the task resumes as well', async () => {
    await resumesAfter((server) => server.stop());
  });
});

describe('long-form task status while a chunk is regenerated', () => {
  let server: RunningTimbre;
  let admin: CreatedKey;
  let dataDir: string;

  test('the task is not completed while the new take runs; waiting for completed is enough to merge; events carry duration', async () => {
    dataDir = await tempDir();
    admin = await createKeyWithCli(dataDir, 'admin', LIMITS);
    server = await startTimbre({ dataDir });
    after(async () => {
      await server.stop();
      await removeDir(dataDir);
    });
    const socket = openEventSocket(server.url, { key: admin.key });
    const events: { type: string; data: Record<string, unknown> }[] = [];
    socket.on('message', (raw) => events.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    after(() => socket.close());

    const text = 'One short line. Two short lines. Three short lines.';
    const started = await request(server.url, 'POST', '/api/generate/clone-chunked', {
      key: admin.key,
      json: { voice_id: SLOW_VOICE, text, language: 'en-US' },
    });
    const taskId: string = started.body.task_id;
    const finished = await until('the first run', async () => {
      const current = await task(server, admin.key, taskId);
      return current.status === 'completed' ? current : undefined;
    });
    const firstRun = await until('its completion event', async () => events.find((event) => event.type === 'job.completed' && event.data.kind === 'long-form'));
    const total = finished.chunks.reduce((sum, chunk) => sum + (chunk.duration ?? 0), 0);
    assert.ok(Math.abs(Number(firstRun.data.duration) - total) < 0.01, `event duration ${String(firstRun.data.duration)} vs chunks ${total}`);
    assert.equal(firstRun.data.audio_url, null, 'no single file exists before merge-chunks');

    const regenerated = await request(server.url, 'POST', '/api/generate/regenerate-chunk', {
      key: admin.key,
      json: { task_id: taskId, index: 1, text: 'The second line is now a much longer sentence than it was before.' },
    });
    assert.equal(regenerated.status, 202, regenerated.text);
    assert.notEqual((await task(server, admin.key, taskId)).status, 'completed', 'a regeneration makes the task busy again');
    await until('completed again', async () => ((await task(server, admin.key, taskId)).status === 'completed' ? true : undefined));
    const merged = await request(server.url, 'POST', '/api/generate/merge-chunks', { key: admin.key, json: { task_id: taskId } });
    assert.equal(merged.status, 200, merged.text);

    const takeDone = events.find((event) => event.type === 'job.completed' && event.data.kind === 'chunk-take');
    assert.ok(takeDone, 'the regeneration completed');
    assert.equal(takeDone.data.audio_url, `/api/audio/chunk/${taskId}/1`);
    assert.ok(Number(takeDone.data.duration) > 0);
  });
});

describe('a long-form task whose engine host is killed', () => {
  test('the chunk the host was speaking is spoken again on a new host, and every chunk completes', async () => {
    const dataDir = await tempDir();
    const admin = await createKeyWithCli(dataDir, 'admin', LIMITS);
    const server = await startTimbre({ dataDir });
    after(async () => {
      await server.stop();
      await removeDir(dataDir);
    });
    const text = Array.from({ length: 6 }, (_, index) => `Sentence ${index + 1} tells a short part of the story.`).join(' ');
    const started = await request(server.url, 'POST', '/api/generate/clone-chunked', {
      key: admin.key,
      json: { voice_id: SLOW_VOICE, text, language: 'en-US' },
    });
    assert.equal(started.status, 202, started.text);
    const taskId: string = started.body.task_id;
    // Polled gently: reads of tasks have their own budget.
    const spoken = async () => (await task(server, admin.key, taskId)).chunks.filter((chunk) => chunk.state === 'completed').length;
    await until('two chunks', async () => ((await spoken()) >= 2 ? true : undefined), 120, 250);
    // One chunk is always with the engine while the one before it is stored, so the kill lands on a chunk being spoken.
    const hosts = await engineHostPids(server.process.pid!);
    assert.equal(hosts.length, 1, 'one engine host runs the task');
    process.kill(hosts[0]!, 'SIGKILL');

    const ended = await until(
      'the task to end',
      async () => {
        const current = await task(server, admin.key, taskId);
        return ['completed', 'failed', 'cancelled'].includes(current.status) ? current : undefined;
      },
      120,
      500,
    );
    const status = await request(server.url, 'GET', '/api/system/status', { key: admin.key });
    assert.ok(status.body.engine_host.restarts >= 1, 'the host died under a chunk');
    assert.equal(ended.status, 'completed', JSON.stringify(ended.error));
    assert.ok(ended.chunks.every((chunk) => chunk.state === 'completed' && chunk.selected_take === 1 && (chunk.duration ?? 0) > 0));
  });
});
