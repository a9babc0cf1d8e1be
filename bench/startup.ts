// Start-up of the compiled service as a user meets it, each against `node -e 0` in the same run.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createKeyWithCli, GENEROUS_LIMITS, removeDir, request, tempDir } from '../test/helpers/timbre.js';
import { median, round, seconds, timed } from './measure.js';

const BIN = fileURLToPath(new URL('../bin/timbre.mjs', import.meta.url));
const run = promisify(execFile);
const ROUNDS = 5;
const SPEAK = { voice_id: 'espeak:en-us', text: 'Hello there.', language: 'en-US', format: 'wav' };

async function medianOf(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let attempt = 0; attempt < ROUNDS; attempt++) times.push((await timed(fn)).seconds);
  return median(times);
}

async function residentMiB(pid: number): Promise<number> {
  const kib = /^VmRSS:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kib) / 1024);
}

/** The service's node children: the engine host (festival sessions and the like run other programs). */
async function engineHostPid(pid: number): Promise<number | undefined> {
  for (const task of await readdir(`/proc/${pid}/task`)) {
    for (const child of (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8')).split(/\s+/).filter(Boolean)) {
      const argv = (await readFile(`/proc/${child}/cmdline`, 'utf8')).split('\0');
      if (argv[0] === process.execPath) return Number(child);
    }
  }
  return undefined;
}

/** Spawns `timbre serve` and resolves with its address once it prints it (the server listens). */
function serve(dataDir: string): { child: ChildProcess; listening: Promise<string> } {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, TIMBRE_LOG_LEVEL: 'warn', TIMBRE_CONTRACT_CHECK: 'false' },
  });
  const listening = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`timbre serve exited with ${code}`)));
  });
  return { child, listening };
}

async function stopped(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One start of `timbre serve`: until it listens, until /api/system/info answers, then a crash of its engine host. */
async function serveRound(dataDir: string, key: string) {
  const start = process.hrtime.bigint();
  const { child, listening } = serve(dataDir);
  try {
    const url = await listening;
    const listeningS = seconds(start);
    // /api/system/info probes every engine (files and programs) on each request; serve does not wait for it.
    const info = await timed(() => request(url, 'GET', '/api/system/info', { key }));
    if (info.value.status !== 200) throw new Error(`/api/system/info: ${info.value.status} ${info.value.text}`);
    const answeredS = seconds(start);
    const speak = () => request(url, 'POST', '/api/generate/preset', { key, json: SPEAK });
    await speak();
    const idleMiB = await residentMiB(child.pid ?? 0);
    const warm = await medianOf(speak);
    const host = await engineHostPid(child.pid ?? 0);
    if (host === undefined) throw new Error('no engine host running after a synthesis');
    const hostMiB = await residentMiB(host);
    process.kill(host, 'SIGKILL');
    // A request that reaches the host before its exit is seen fails with engine_crashed; a client asks again.
    const afterCrash = await timed(async () => {
      for (let attempt = 0; attempt < 5; attempt++) if ((await speak()).status === 200) return;
      throw new Error('no synthesis answered after a crash of the engine host');
    });
    return { listeningS, infoS: info.seconds, answeredS, warm, afterCrashS: afterCrash.seconds, idleMiB, hostMiB };
  } finally {
    await stopped(child);
  }
}

export async function benchStartup() {
  const dataDir = await tempDir('timbre-bench-startup-');
  try {
    const { key } = await createKeyWithCli(dataDir, 'bench startup', GENEROUS_LIMITS);
    const node = await medianOf(() => run(process.execPath, ['-e', '0']));
    const help = await medianOf(() => run(process.execPath, [BIN, '--help']));
    const rounds: Awaited<ReturnType<typeof serveRound>>[] = [];
    for (let attempt = 0; attempt < 3; attempt++) rounds.push(await serveRound(dataDir, key));
    const of = (pick: (entry: (typeof rounds)[number]) => number) => median(rounds.map(pick));
    const restart = of((entry) => entry.afterCrashS - entry.warm);
    // Only a command's own start-up is held against node's; the other rows happen inside a running service.
    const row = (measure: string, value: number, unit: 's' | 'MiB', goal = '-', againstNode = false) => ({
      measure,
      value: round(value),
      unit,
      above_node_s: againstNode ? round(value - node) : '-',
      goal,
    });
    const listening = of((entry) => entry.listeningS);
    const answered = of((entry) => entry.answeredS);
    const [probing, warm, afterCrash] = [of((entry) => entry.infoS), of((entry) => entry.warm), of((entry) => entry.afterCrashS)];
    const [idleMiB, hostMiB] = [of((entry) => entry.idleMiB), of((entry) => entry.hostMiB)];
    return [
      row('node -e 0', node, 's'),
      row('timbre --help', help, 's', '≤ 0.3 s above node', true),
      row('timbre serve until it listens', listening, 's', '≤ 1.5 s', true),
      row('first /api/system/info alone (engine probing)', probing, 's', 'reported apart'),
      row('timbre serve until /api/system/info answers', answered, 's', '-', true),
      row('short synthesis, engine host warm', warm, 's'),
      row('the same right after kill -9 of the host (asked again on engine_crashed)', afterCrash, 's'),
      row('engine host restart (the difference)', restart, 's', '≤ 0.4 s'),
      row('service resident memory at idle', idleMiB, 'MiB'),
      row('engine host resident memory (espeak loaded)', hostMiB, 'MiB'),
    ];
  } finally {
    await removeDir(dataDir);
  }
}
