import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type RunningTimbre } from './timbre.js';

export interface Watched<T> {
  result: T;
  /** The slowest answer to a cheap request sent over and over while the work ran. */
  slowestMs: number;
  /** How far the service's resident memory rose above where it was before the work. */
  rssGrowthBytes: number;
}

/** Resident memory of a process, from /proc. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Runs `work` against the service while another client keeps asking it something cheap, and
 * measures what the work cost everyone else: how long that client waited at worst, and how much
 * the service's memory grew.
 */
export async function whileWatching<T>(server: RunningTimbre, key: string, work: () => Promise<T>): Promise<Watched<T>> {
  const pid = server.process.pid!;
  const baseline = await residentBytes(pid);
  let peak = baseline;
  let slowestMs = 0;
  let done = false;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await request(server.url, 'GET', '/api/categories', { key });
      slowestMs = Math.max(slowestMs, performance.now() - started);
      peak = Math.max(peak, await residentBytes(pid));
      await sleep(20);
    }
  })();
  try {
    const result = await work();
    done = true;
    await probe;
    peak = Math.max(peak, await residentBytes(pid));
    return { result, slowestMs, rssGrowthBytes: peak - baseline };
  } finally {
    done = true;
    await probe;
  }
}
