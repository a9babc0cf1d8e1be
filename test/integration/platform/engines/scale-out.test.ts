// Black-box: an API node, worker processes and redis-server are separate processes talking over Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRedis, type RunningRedis } from '../../../helpers/redis.js';
import { createKeyWithCli, removeDir, request, startTimbre, tempDir, type RunningTimbre } from '../../../helpers/timbre.js';
import { eventually, startWorker, type RunningWorker } from '../../../helpers/workers.js';

describe('engine work through BullMQ on Redis', () => {
  let redis: RunningRedis;
  let api: RunningTimbre;
  let key: string;
  const workers: RunningWorker[] = [];
  const call = (method: string, path: string, json?: unknown) => request(api.url, method, path, { key, json });
  const speak = (text: string) => call('POST', '/api/generate/preset', { text, voice_id: 'flite:slt', format: 'wav' });

  before(async () => {
    redis = await startRedis();
    const dataDir = await tempDir();
    key = (await createKeyWithCli(dataDir, 'scale-out')).key;
    api = await startTimbre({ dataDir, env: { TIMBRE_QUEUE_URL: redis.url, TIMBRE_LOCAL_WORKER: 'false' } });
  });

  after(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await api?.stop();
    await redis?.close();
    if (api) await removeDir(api.dataDir);
  });

  test('with no worker nothing can be spoken, and the status says why', async () => {
    const info = await call('GET', '/api/system/info');
    const flite = info.body.engines.find((engine: { id: string }) => engine.id === 'flite');
    assert.deepEqual([flite.available, flite.reason], [false, 'No live worker has flite']);
    const status = await call('GET', '/api/system/status');
    assert.deepEqual([status.body.workers.connected, status.body.workers.workers], [true, []]);
    assert.equal(status.body.engine_host, undefined, 'no engine host runs on an API node without a local worker');
  });

  test('a worker that joins is listed with its engines, and speaks for the API node', async () => {
    workers.push(await startWorker(redis.url));
    const listed = await eventually('the worker listed', async () => {
      const status = await call('GET', '/api/system/status');
      return status.body.workers.workers.length === 1 ? status.body.workers.workers[0] : undefined;
    });
    assert.ok(listed.engines.includes('flite') && listed.slots === 1, JSON.stringify(listed));
    const spoken = await speak('A worker on another machine said this sentence.');
    assert.equal(spoken.status, 200, spoken.text);
    assert.equal(spoken.headers['content-type'], 'audio/wav');
    assert.ok(Buffer.byteLength(spoken.text, 'latin1') > 16000, 'seconds of audio came back through Redis');
    const counted = await eventually('the call counted', async () => {
      const status = await call('GET', '/api/system/status');
      return status.body.workers.workers[0]?.completed >= 1 ? status.body.workers.workers[0] : undefined;
    });
    assert.equal(counted.running, 0);
  });

  test('Redis stopped: engine work answers 503 queue_unavailable within 5 s and reads go on; Redis back: work resumes by itself', async () => {
    await redis.stop();
    const started = Date.now();
    const refused = await speak('Nobody carries this one.');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.code, 'queue_unavailable');
    assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
    assert.equal((await call('GET', '/api/voices?limit=1')).status, 200);
    await redis.restart();
    const spoken = await eventually('synthesis after Redis came back', async () => {
      const answer = await speak('The queue is back.');
      return answer.status === 200 ? answer : undefined;
    });
    assert.equal(spoken.headers['content-type'], 'audio/wav');
  });
});
