// Black-box: an API node and two worker processes with different models, over a real redis-server.
import assert from 'node:assert/strict';
import http from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedis, type RunningRedis } from '../../../helpers/redis.js';
import { buildKitten } from '../../../helpers/stand-in-kitten.js';
import { buildVits } from '../../../helpers/stand-in-vits.js';
import { createKeyWithCli, removeDir, request, startTimbre, tempDir, type RunningTimbre } from '../../../helpers/timbre.js';
import { eventually, startWorker, type RunningWorker } from '../../../helpers/workers.js';

const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'system:read=100000', '--rate-limit', 'voices:read=1000'];
const TWENTY = Array.from({ length: 20 }, (_, index) => `Sentence ${index + 1} tells a short part of the story.`).join(' ');
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';
/** Worker B's models folder has the (stand-in) Kitten model; worker A's has none. */
const KITTEN_VOICE = 'kitten:expr-voice-2-f';
/** Each has a Piper model (stand-ins) of its own: one engine, other voices. */
const PIPER = { a: 'en_US-stand_in-medium', b: 'en_US-other-medium' };

interface Worker {
  id: string;
  host: string;
  engines: string[];
  slots: number;
  running: number;
  completed: number;
}

describe('two workers with different engines', { timeout: 600_000 }, () => {
  let redis: RunningRedis;
  let api: RunningTimbre;
  let key: string;
  let modelsA: string;
  let modelsB: string;
  let workerA: RunningWorker;
  let workerB: RunningWorker;
  const ids = { a: '', b: '' };
  const call = (method: string, path: string, json?: unknown) => request(api.url, method, path, { key, json });
  const workers = async (): Promise<Worker[]> => (await call('GET', '/api/queue/status')).body.workers.workers;
  const counts = async () => {
    const live = await workers();
    const of = (id: string) => live.find((worker) => worker.id === id);
    return { a: of(ids.a)?.completed ?? 0, b: of(ids.b)?.completed ?? 0, running: live.reduce((sum, worker) => sum + worker.running, 0) };
  };
  /** Counts are announced every 2 s and read at most once a second: waits until they show every call finished until now. */
  const settledCounts = async () => {
    await sleep(3500);
    return counts();
  };
  const finished = async (taskId: string, seconds = 240) =>
    eventually(
      `task ${taskId} finished`,
      async () => {
        const task = (await call('GET', `/api/tasks/${taskId}`)).body;
        return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
      },
      seconds,
    );

  before(async () => {
    redis = await startRedis();
    [modelsA, modelsB] = await Promise.all([tempDir('timbre-models-a-'), tempDir('timbre-models-b-')]);
    await buildKitten(join(modelsB, 'kitten-nano-en-v0_2-fp16'));
    await buildVits(join(modelsA, 'piper-en-us-lessac-medium'), { name: PIPER.a });
    await buildVits(join(modelsB, 'piper-en-us-lessac-medium'), { name: PIPER.b });
    const dataDir = await tempDir();
    key = (await createKeyWithCli(dataDir, 'scale-out', LIMITS)).key;
    api = await startTimbre({ dataDir, env: { TIMBRE_QUEUE_URL: redis.url, TIMBRE_LOCAL_WORKER: 'false' } });
    // A dead worker's calls go to the other after 3 s of silence.
    const env = (models: string) => ({ TIMBRE_MODELS_DIR: models, TIMBRE_QUEUE_STALL_SECONDS: '3' });
    [workerA, workerB] = await Promise.all([startWorker(redis.url, env(modelsA)), startWorker(redis.url, env(modelsB))]);
    const live = await eventually('both workers listed', async () => {
      const listed = await workers();
      return listed.length === 2 ? listed : undefined;
    });
    ids.a = live.find((worker) => !worker.engines.includes('kitten'))!.id;
    ids.b = live.find((worker) => worker.engines.includes('kitten'))!.id;
    // The voice list is read again from the workers now, not in the middle of a measurement.
    assert.equal((await call('GET', '/api/voices?limit=1')).status, 200);
  });

  after(async () => {
    await Promise.all([workerA, workerB].map((worker) => worker?.stop()));
    await api?.stop();
    await redis?.close();
    for (const dir of [api?.dataDir, modelsA, modelsB]) if (dir) await removeDir(dir);
  });

  test('each worker announces what its own machine has; a voice of an engine only one has goes only to that one', async () => {
    const voice = (await call('GET', `/api/voices/${KITTEN_VOICE}`)).body;
    assert.equal(voice.available, true, 'the API node lists what a live worker can speak');
    const before = await settledCounts();
    for (let round = 0; round < 3; round++) {
      const spoken = await call('POST', '/api/generate/preset', { text: `Kitten sentence ${round}.`, voice_id: KITTEN_VOICE, format: 'wav' });
      assert.equal(spoken.status, 200, spoken.text);
    }
    const afterwards = await settledCounts();
    assert.equal(afterwards.a, before.a, 'the worker without Kitten ran none of its calls');
    assert.ok(afterwards.b >= before.b + 3, `worker B ran ${afterwards.b - before.b} calls`);
  });

  test('two machines with other voices of one engine: the voice list has both, and each voice goes to the machine that has it', async () => {
    for (const name of [PIPER.a, PIPER.b]) assert.equal((await call('GET', `/api/voices/vits:${name}`)).body.available, true, name);
    for (const [owner, other] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const name = PIPER[owner];
      const before = await settledCounts();
      for (let round = 0; round < 2; round++) {
        const spoken = await call('POST', '/api/generate/preset', { text: `Piper sentence ${round}.`, voice_id: `vits:${name}`, format: 'wav' });
        assert.equal(spoken.status, 200, spoken.text);
      }
      const afterwards = await settledCounts();
      assert.equal(afterwards[owner] - before[owner], 2, `${name} was spoken on worker ${owner}`);
      assert.equal(afterwards[other], before[other], `worker ${other}, which lacks ${name}, ran none of its calls`);
    }
  });

  test('a 20-sentence task runs on both workers at once, every chunk spoken once', async () => {
    const before = await settledCounts();
    const started = await call('POST', '/api/generate/clone-chunked', { voice_id: 'flite:slt', text: TWENTY, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    const task = await finished(started.body.task_id);
    assert.equal(task.status, 'completed');
    assert.equal(task.chunks.length, 20);
    for (const chunk of task.chunks) {
      assert.equal(chunk.state, 'completed');
      assert.equal(chunk.takes.length, 1, `chunk ${chunk.index} was spoken once`);
      assert.ok(chunk.duration > 0.5, `chunk ${chunk.index}: ${chunk.duration} s`);
    }
    const afterwards = await settledCounts();
    assert.ok(afterwards.a > before.a && afterwards.b > before.b, `A ran ${afterwards.a - before.a}, B ran ${afterwards.b - before.b}`);
    assert.equal(afterwards.a - before.a + afterwards.b - before.b, 20, 'one call per chunk');
  });

  test('streaming through a worker sends audio before the synthesis has ended', async () => {
    const text = Array.from({ length: 30 }, (_, index) => `This is sentence number ${index + 1}, spoken on a worker.`).join(' ');
    const opened = await openStream(api.url, key, { voice_id: 'flite:slt', text, language: 'en-US', stream: true });
    assert.equal(opened.status, 200);
    const taskId = String(opened.headers['x-task-id']);
    await opened.audioArrived;
    assert.equal((await call('GET', `/api/tasks/${taskId}`)).body.status, 'running', 'audio came while the task was still running');
    const whole = await opened.whole;
    const task = await finished(taskId);
    assert.equal(whole.length, 44 + Math.round(task.duration * 16000) * 2, 'every sample came through Redis, none twice');
  });

  test('cancel reaches the worker running the call and stops it', async () => {
    const text = Array.from({ length: 12 }, (_, index) => `Clause ${index + 1} of a very long sentence goes on and on`).join(', ') + '.';
    const before = await settledCounts();
    const started = await call('POST', '/api/generate/preset', { text, voice_id: SLOW_VOICE, language: 'en-US', format: 'wav', async: true });
    assert.equal(started.status, 202, started.text);
    await eventually('the call running on a worker', async () => ((await counts()).running > 0 ? true : undefined));
    const cancelled = await call('POST', '/api/generation/cancel', { task_id: started.body.task_id });
    assert.equal(cancelled.status, 200, cancelled.text);
    await eventually('the worker idle again', async () => ((await counts()).running === 0 ? true : undefined), 6);
    assert.equal((await finished(started.body.task_id)).status, 'cancelled');
    const afterwards = await settledCounts();
    assert.equal(afterwards.a + afterwards.b, before.a + before.b, 'the call was stopped, not finished');
  });

  test('kill -9 of a worker mid-task: its call goes to the other worker and every chunk is spoken once', async () => {
    const started = await call('POST', '/api/generate/clone-chunked', { voice_id: SLOW_VOICE, text: TWENTY, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    const taskId = started.body.task_id;
    await eventually('worker A running a chunk', async () => {
      const mine = (await workers()).find((worker) => worker.id === ids.a);
      return mine && mine.running > 0 ? true : undefined;
    });
    await workerA.kill();
    const task = await finished(taskId);
    assert.equal(task.status, 'completed', JSON.stringify(task.error));
    assert.equal(task.chunks.length, 20);
    for (const chunk of task.chunks) {
      assert.equal(chunk.state, 'completed', `chunk ${chunk.index}`);
      assert.equal(chunk.takes.length, 1, `chunk ${chunk.index} was spoken once`);
    }
    const live = await eventually('the dead worker gone from the list', async () => {
      const listed = await workers();
      return listed.length === 1 ? listed : undefined;
    });
    assert.equal(live[0]!.id, ids.b);
  });
});

/** POSTs a streaming generation; `audioArrived` settles once bytes past the WAV header have come. */
function openStream(url: string, key: string, json: unknown) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; audioArrived: Promise<void>; whole: Promise<Buffer> }>((resolve, reject) => {
    const outgoing = http.request(
      new URL('/api/generate/preset', url),
      { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        let arrived: () => void = () => undefined;
        const audioArrived = new Promise<void>((done) => (arrived = done));
        const whole = new Promise<Buffer>((done, fail) => {
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            received += chunk.length;
            if (received > 44) arrived();
          });
          response.on('end', () => done(Buffer.concat(chunks)));
          response.on('error', fail);
        });
        resolve({ status: response.statusCode ?? 0, headers: response.headers, audioArrived, whole });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(json));
  });
}
