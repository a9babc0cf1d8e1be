import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { compiledTimbre, removeDir, tempDir } from './timbre.js';

export interface RunningWorker {
  process: ChildProcess;
  dataDir: string;
  /** Stops it (SIGTERM, as an operator would) and removes its folder. */
  stop(): Promise<void>;
  /** kill -9: the worker dies mid-call without a word to Redis. */
  kill(): Promise<void>;
}

/** `timbre worker --slots 1` on the queue, with a data folder of its own (a worker machine keeps no state). */
export async function startWorker(url: string, env: Record<string, string> = {}): Promise<RunningWorker> {
  const dataDir = await tempDir('timbre-worker-');
  const child = spawn(process.execPath, [compiledTimbre(), 'worker', '--slots', '1', '--data-dir', dataDir], {
    env: { ...process.env, TIMBRE_QUEUE_URL: url, TIMBRE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`timbre worker exited with ${code}`)));
  });
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const signal = async (name: NodeJS.Signals) => {
    if (ended()) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(name);
    await exited;
  };
  return {
    process: child,
    dataDir,
    stop: async () => {
      await signal('SIGTERM');
      await removeDir(dataDir);
    },
    kill: () => signal('SIGKILL'),
  };
}

/** Polls `probe` until it gives a value. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, seconds = 15): Promise<T> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; await sleep(200)) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`${what} did not happen within ${seconds} s`);
}
