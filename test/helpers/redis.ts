import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tempDir, removeDir } from './timbre.js';

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (its data goes with it: nothing is saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty, as after a restart without persistence. */
  restart(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Debian's redis-server on a free loopback port with a temporary folder, as the scale-out tests need it. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const dir = await tempDir('timbre-redis-');
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${seen}`)));
    });
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: start,
    close: async () => {
      await stop();
      await removeDir(dir);
    },
  };
}
