// Scale-out (TIMBRE_QUEUE_URL): what the BullMQ hop to a `timbre worker` process costs per engine
// call, and long-form throughput with one and two worker processes. The workers are the compiled
// service (bin/timbre.mjs), so `npm run build:server` comes first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { localEngineHost } from '../src/app/compute.js';
import { createServices } from '../src/app/services.js';
import type { Config } from '../src/platform/config.js';
import type { EngineId } from '../src/platform/engines/engine-ids.js';
import type { EngineClient } from '../src/platform/engines/host/calls.js';
import { HEARTBEAT_MS, liveWorkers } from '../src/platform/engines/remote/announcements.js';
import { QueuedEngines } from '../src/platform/engines/remote/queued-engines.js';
import type { EngineDescriptor, SynthesisRequest, Synthesizer } from '../src/platform/engines/types.js';
import { createLog } from '../src/platform/log.js';
import { startRedis } from '../test/helpers/redis.js';
import { runLongForm, type LongFormRun } from './long-form.js';
import { benchScaleOutCost } from './scale-out-cost.js';
import { median, round, seconds } from './measure.js';
import { englishVoice } from './synthesizers.js';
import { LONG_TEXT, SHORT_TEXT } from './texts.js';

const BIN = fileURLToPath(new URL('../bin/timbre.mjs', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
/** Interleaved rounds per text for the per-call figures, after one warm-up call each way. */
const CALL_RUNS = { short: 20, long: 10 };
/**
 * Long-form voices and the tasks measured with each per worker count, after one warm-up task: a
 * fast one, where the hop and the API node's own work (encoding, storing) weigh most, and a slow
 * one, where the engines' work does, as with neural voices.
 */
const LONG_FORM_VOICES = [
  { id: 'pico:en-US', runs: 5 },
  { id: 'festival:cmu_us_slt_arctic_hts', runs: 2 },
];

const cores = availableParallelism();

export const SCALE_OUT_TITLES = {
  calls: `Scale-out, one engine call: a local engine host against the BullMQ hop through Redis to a spawned \`timbre worker --slots 1\` (its own engine host), interleaved, medians after a warm-up; streamed = audio sent piece by piece as the service calls it, whole = one result; ratio = queued / local; first_audio = first streamed piece`,
  throughput: `Scale-out, long-form throughput of 2,000 characters: an API node without a local worker and 1, then 2, spawned \`timbre worker --slots 1\` processes (medians of 5 pico and 2 festival tasks after a warm-up; speedup = 1-worker total / this total; calls = engine calls each worker ran). This machine has ${cores} core${cores === 1 ? '' : 's'}, which the API node, redis and both workers share: expect at most ${Math.min(2, cores)}×`,
  cost: `Scale-out, CPU per request on each machine: \`POST /api/generate/preset\` (pico:en-US, WAV) to a real \`timbre serve\` on the queue without a local worker, served by the 2 workers above, 4 requests at a time after a warm-up (api_node, redis, worker = the worker processes, engine_hosts = their engine hosts, in ms of CPU per request)`,
};

interface SpawnedWorker {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `timbre worker --slots 1` on the queue with a data folder of its own; it is in `workers` before it is ready, so a finally can stop it. */
async function spawnWorker(url: string, modelsDir: string, workers: SpawnedWorker[]): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-bench-worker-'));
  const child = spawn(process.execPath, [BIN, 'worker', '--slots', '1'], {
    env: { ...process.env, TIMBRE_QUEUE_URL: url, TIMBRE_DATA_DIR: dataDir, TIMBRE_MODELS_DIR: modelsDir, TIMBRE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  workers.push({
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`timbre worker exited with ${code}`)));
  });
}

/** Polls until `ready` is true, for at most 30 s. */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) if (await ready().catch(() => false)) return;
  throw new Error(`${what} did not happen within 30 s`);
}

/** `count` live workers announced in Redis, and the API node's engine client sees them (its first commands fail until it has connected). */
async function announced(redis: Redis, engines: EngineClient, count: number): Promise<void> {
  await until(`${count} worker(s) announced`, async () => (await liveWorkers(redis)).length >= count);
  await until('the engine client connected', async () => (await engines.enginesVersion()) !== '');
}

/** Calls each live worker has completed, once every worker has beaten its heart since the last call. */
async function completedCalls(redis: Redis): Promise<Map<string, number>> {
  await sleep(HEARTBEAT_MS + 500);
  return new Map((await liveWorkers(redis)).map((worker) => [worker.id, worker.completed]));
}

/** One synthesis, streamed as the service makes it or whole: seconds to the result and to its first audio piece. */
async function synthesis(engines: EngineClient, engine: EngineId, request: SynthesisRequest, stream: boolean): Promise<{ total: number; first: number }> {
  const start = process.hrtime.bigint();
  let first: number | undefined;
  await engines.synthesize(engine, request, stream ? { onAudio: () => (first ??= seconds(start)) } : {});
  const total = seconds(start);
  return { total, first: first ?? total };
}

/** The same synthesis on a local engine host and through the queue to a spawned worker, alternating which goes first. */
async function callOverhead(config: Config, url: string, redis: Redis, descriptor: EngineDescriptor<Synthesizer>) {
  const synthesizer = await descriptor.load();
  const voice = (await englishVoice(synthesizer))?.id;
  await synthesizer.dispose?.();
  if (!voice) return [];
  const local = localEngineHost(config, 1);
  const queued = new QueuedEngines({ url, jobTimeoutMs: config.engineTimeoutSeconds * 1000, cancelGraceMs: 2000, log: createLog('warn') });
  try {
    await announced(redis, queued, 1);
    const rows = [];
    const cases = [
      { label: 'short', text: SHORT_TEXT, runs: CALL_RUNS.short },
      { label: 'long', text: LONG_TEXT, runs: CALL_RUNS.long },
    ].flatMap((entry) => [true, false].map((stream) => ({ ...entry, stream })));
    for (const { label, text, runs, stream } of cases) {
      const request = { text, voice };
      const ways = [local, queued].map((engines) => ({ engines, totals: [] as number[], firsts: [] as number[] }));
      for (const way of ways) await synthesis(way.engines, descriptor.id, request, stream);
      for (let index = 0; index < runs; index++) {
        for (const way of index % 2 ? [...ways].reverse() : ways) {
          const { total, first } = await synthesis(way.engines, descriptor.id, request, stream);
          way.totals.push(total);
          way.firsts.push(first);
        }
      }
      const [localTotal, queuedTotal] = ways.map((way) => median(way.totals)) as [number, number];
      const [localFirst, queuedFirst] = ways.map((way) => median(way.firsts)) as [number, number];
      rows.push({
        voice,
        text: `${label}, ${text.length} chars`,
        audio: stream ? 'streamed' : 'whole',
        runs,
        local_s: round(localTotal),
        queued_s: round(queuedTotal),
        ratio: round(queuedTotal / localTotal, 2),
        overhead_ms: round((queuedTotal - localTotal) * 1000, 1),
        local_first_audio_s: stream ? round(localFirst) : null,
        queued_first_audio_s: stream ? round(queuedFirst) : null,
      });
    }
    return rows;
  } finally {
    await queued.close();
    await local.close();
  }
}

/** Long-form tasks on an API node without a local worker, with 1 and then 2 spawned workers. */
async function longFormThroughput(config: Config, url: string, redis: Redis, workers: SpawnedWorker[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-bench-api-'));
  const services = createServices({ ...config, dataDir, queueUrl: url, localWorker: false, logLevel: 'warn' });
  try {
    const rows = [];
    const oneWorker = new Map<string, number>();
    for (const count of [1, 2]) {
      while (workers.length < count) await spawnWorker(url, config.modelsDir, workers);
      await announced(redis, services.engines, count);
      for (const { id, runs: taskRuns } of LONG_FORM_VOICES) {
        const voice = await services.voices.get(id).catch(() => undefined);
        if (!voice?.available) continue;
        await runLongForm(services, voice);
        const before = await completedCalls(redis);
        const runs: LongFormRun[] = [];
        for (let index = 0; index < taskRuns; index++) runs.push(await runLongForm(services, voice));
        const after = await completedCalls(redis);
        const total = median(runs.map((run) => run.total));
        if (!oneWorker.has(id)) oneWorker.set(id, total);
        rows.push({
          voice: voice.id,
          workers: count,
          chunks: runs[0]!.chunks,
          first_chunk_s: round(median(runs.map((run) => run.firstChunk))),
          total_s: round(total),
          audio_s: round(runs[0]!.audio, 1),
          rtf: round(total / runs[0]!.audio),
          speedup: round(oneWorker.get(id)! / total, 2),
          calls: [...after].map(([worker, completed]) => completed - (before.get(worker) ?? 0)).join(' + '),
        });
      }
    }
    return rows;
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Both scale-out tables; redis-server and every worker it started are stopped whatever happens. */
export async function benchScaleOut(config: Config, descriptor: EngineDescriptor<Synthesizer> | undefined) {
  if (!existsSync(DIST_MAIN)) throw new Error('The scale-out bench spawns the compiled worker: run npm run build:server first');
  if (spawnSync('redis-server', ['--version']).error) {
    process.stdout.write('skipped scale-out: redis-server is not installed (npm run setup installs it)\n');
    return { calls: [], throughput: [], cost: [] };
  }
  const server = await startRedis();
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  const workers: SpawnedWorker[] = [];
  try {
    await spawnWorker(server.url, config.modelsDir, workers);
    const calls = descriptor ? await callOverhead(config, server.url, redis, descriptor) : [];
    const throughput = await longFormThroughput(config, server.url, redis, workers);
    const cost = await benchScaleOutCost(
      server.url,
      redis,
      workers.flatMap((worker) => (worker.child.pid === undefined ? [] : [worker.child.pid])),
    );
    return { calls, throughput, cost };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    redis.disconnect();
    await server.close();
  }
}
