import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallOptions, EngineCall, EngineMethod, EngineResult } from '../../../../../src/platform/engines/host/calls.js';
import { EngineWorker } from '../../../../../src/platform/engines/remote/engine-worker.js';
import { QueuedEngines } from '../../../../../src/platform/engines/remote/queued-engines.js';
import { EngineError } from '../../../../../src/platform/errors.js';
import { createLog } from '../../../../../src/platform/log.js';
import { FakeEngines } from '../../../../helpers/fake-engines.js';
import { startRedis, type RunningRedis } from '../../../../helpers/redis.js';

const log = createLog('silent');

/** A worker machine's engines whose syntheses take `ms` (and stop when aborted). */
class SlowEngines extends FakeEngines {
  started = 0;
  finished = 0;
  aborted = 0;

  constructor(private readonly ms: number) {
    super(0.3);
  }

  override async run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    if (call.method !== 'synthesize') return super.run<M>(engine, call, options);
    this.started++;
    try {
      await sleep(this.ms, undefined, { signal: options.signal });
    } catch {
      this.aborted++;
      throw new EngineError('cancelled', 'The job was cancelled');
    }
    this.finished++;
    return super.run<M>(engine, call, options);
  }
}

describe('a worker that stops', () => {
  let redis: RunningRedis;
  let api: QueuedEngines;
  const workers: EngineWorker[] = [];
  const startWorker = async (engines: SlowEngines) => {
    const worker = new EngineWorker({ url: redis.url, engines, synthesizers: new Set(), slots: 1, stallMs: 1000, log });
    workers.push(worker);
    await worker.start();
    return worker;
  };
  const until = async (what: string, ready: () => boolean | Promise<boolean>) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) if (await ready()) return;
    throw new Error(`${what} did not happen`);
  };
  const speak = () => api.synthesize('pico', { text: 'A sentence that takes a while.', voice: 'en-US' });

  before(async () => {
    redis = await startRedis();
    api = new QueuedEngines({ url: redis.url, jobTimeoutMs: 30_000, cancelGraceMs: 1000, log });
  });
  after(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await api.close();
    await redis.close();
  });

  test('finishes its running call and answers it before it leaves, taking no new one', async () => {
    const engines = new SlowEngines(1500);
    const worker = await startWorker(engines);
    await until('the worker seen', async () => (await api.available('pico')).available);
    const call = speak();
    await until('the call running', () => engines.started === 1);
    await worker.close(10_000);
    assert.equal(engines.finished, 1, 'the call ran to its end before close returned');
    assert.ok((await call).pcm.samples.length > 0);
    await sleep(1100);
    await assert.rejects(speak(), { code: 'no_worker_for_engine' });
  });

  test('past its drain time it leaves the running call unanswered, and another worker takes it over', async () => {
    const leaving = new SlowEngines(60_000);
    const worker = await startWorker(leaving);
    await until('the worker seen', async () => (await api.available('pico')).available);
    const call = speak();
    await until('the call running', () => leaving.started === 1);
    const taking = new SlowEngines(100);
    await startWorker(taking);
    await worker.close(0);
    const answer = await call;
    assert.ok(answer.pcm.samples.length > 0);
    assert.deepEqual([leaving.aborted, taking.finished], [1, 1], 'stopped on the leaving worker, spoken on the other');
  });
});
