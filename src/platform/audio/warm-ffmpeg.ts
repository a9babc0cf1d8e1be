import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * ffmpeg takes about 130 ms to start here (it links dozens of shared libraries), longer than a
 * sentence takes to synthesize. A stream must not wait for that, so each argument list used for
 * streaming keeps one process started ahead, waiting for its input; taking it starts the next.
 */

/** Argument lists kept warm at once; the least recently used is dropped beyond this. */
const MAX_WARM = 8;

export interface WarmProcess {
  child: ChildProcessWithoutNullStreams;
  /** What the process wrote before it was taken (a container header), to send first. */
  early: Buffer[];
}

interface Spare {
  child: ChildProcessWithoutNullStreams;
  early: Buffer[];
  collect: (bytes: Buffer) => void;
}

const spares = new Map<string, Spare>();

/** A waiting spare must not keep a process alive that has nothing else to do (a CLI, a test). */
function hold(child: ChildProcessWithoutNullStreams, held: boolean): void {
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    if (!(stream instanceof Socket)) continue;
    if (held) stream.ref();
    else stream.unref();
  }
  if (held) child.ref();
  else child.unref();
}

function start(args: readonly string[]): Spare {
  const child = spawn('ffmpeg', args);
  hold(child, false);
  const early: Buffer[] = [];
  const collect = (bytes: Buffer) => early.push(bytes);
  child.stdout.on('data', collect);
  // A spare that fails or is stopped is simply not used.
  child.stdin.on('error', () => undefined);
  child.once('exit', () => {
    for (const [key, spare] of spares) if (spare.child === child) spares.delete(key);
  });
  return { child, early, collect };
}

/**
 * An ffmpeg running `args`, started ahead when one was waiting; another is started for the next
 * caller. The caller owns the process: it must end its input or kill it.
 */
export function takeFfmpeg(args: readonly string[]): WarmProcess {
  const key = JSON.stringify(args);
  const waiting = spares.get(key);
  spares.delete(key);
  const taken = waiting && waiting.child.exitCode === null && waiting.child.signalCode === null ? waiting : start(args);
  taken.child.stdout.off('data', taken.collect);
  hold(taken.child, true);
  spares.set(key, start(args));
  while (spares.size > MAX_WARM) {
    const [oldest, spare] = spares.entries().next().value!;
    spares.delete(oldest);
    spare.child.kill('SIGKILL');
  }
  return { child: taken.child, early: taken.early };
}

/** Ends every waiting process (the service is stopping). */
export function stopWarmFfmpeg(): void {
  for (const spare of spares.values()) spare.child.kill('SIGKILL');
  spares.clear();
}
