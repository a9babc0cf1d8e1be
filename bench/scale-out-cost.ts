// What one call costs each machine in a scaled-out service: CPU of the API node, of Redis, of the
// worker process and of its engine hosts, per request, through the real HTTP API. These are the
// numbers that say when one API node or one Redis is no longer enough (docs/scaling.md).
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { createKeyWithCli, removeDir, startTimbre } from '../test/helpers/timbre.js';
import { round, seconds } from './measure.js';
import { LONG_TEXT, SHORT_TEXT } from './texts.js';

const VOICE = 'pico:en-US';
/** Requests per text, sent `CONCURRENCY` at a time after a warm-up. */
const REQUESTS = { short: 200, long: 20 };
const CONCURRENCY = 4;

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds a process has used (user + system), from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces, start at the state (field 3): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')));
  return lists.flatMap((list) => list.split(/\s+/).filter(Boolean).map(Number));
}

/** CPU of each part so far: engine hosts are the workers' children (alive, so not yet in their parents' counts). */
async function cpuOf(parts: { api: number; redis: number; workers: number[] }) {
  const hosts = (await Promise.all(parts.workers.map(childrenOf))).flat();
  const sum = async (pids: number[]) => (await Promise.all(pids.map((pid) => cpuSeconds(pid).catch(() => 0)))).reduce((a, b) => a + b, 0);
  return { api: await cpuSeconds(parts.api), redis: await cpuSeconds(parts.redis), worker: await sum(parts.workers), hosts: await sum(hosts) };
}

async function speak(url: string, key: string, text: string): Promise<void> {
  const response = await fetch(`${url}/api/generate/preset`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice_id: VOICE, format: 'wav' }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`generate answered ${response.status}`);
}

async function inParallel(count: number, request: () => Promise<void>): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await request();
    }),
  );
}

/** Requests through a real `timbre serve` on the queue (no local worker) to the workers already running. */
export async function benchScaleOutCost(url: string, redis: Redis, workerPids: number[]) {
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  const service = await startTimbre({ env: { TIMBRE_QUEUE_URL: url, TIMBRE_LOCAL_WORKER: 'false', TIMBRE_CONTRACT_CHECK: 'false' } });
  try {
    const { key } = await createKeyWithCli(service.dataDir, 'bench', ['--rate-limit', 'tts:generate=100000']);
    const parts = { api: service.process.pid!, redis: redisPid, workers: workerPids };
    const rows = [];
    for (const [name, text, count] of [
      ['one sentence', SHORT_TEXT, REQUESTS.short],
      ['2,000 characters', LONG_TEXT, REQUESTS.long],
    ] as const) {
      await inParallel(CONCURRENCY * 2, () => speak(service.url, key, text));
      const before = await cpuOf(parts);
      const start = process.hrtime.bigint();
      await inParallel(count, () => speak(service.url, key, text));
      const wall = seconds(start);
      const after = await cpuOf(parts);
      const perCall = (part: keyof typeof before) => round(((after[part] - before[part]) / count) * 1000, 1);
      rows.push({
        text: name,
        requests: count,
        at_once: CONCURRENCY,
        per_second: round(count / wall, 1),
        api_node_ms: perCall('api'),
        redis_ms: perCall('redis'),
        worker_ms: perCall('worker'),
        engine_hosts_ms: perCall('hosts'),
      });
    }
    return rows;
  } finally {
    await service.stop();
    await removeDir(service.dataDir);
  }
}
