import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { EngineError } from '../errors.js';
import { SerialLock } from './native/library.js';

/**
 * Festival kept running: `festival --pipe` reads Scheme commands on stdin for as long as it lives,
 * so the start-up (init.scm, then a voice: about a second with the HTS voice) is paid once per
 * voice instead of once per piece of text. Each command runs inside SIOD's `unwind-protect` and is
 * followed by a completion line of its own, `<marker> ok` or `<marker> error`, on stderr: after the
 * `SIOD ERROR: …` it may have caused there (stderr is unbuffered, stdout a buffered pipe). A failed
 * command fails alone and the process goes on.
 */

const PROGRAM = 'festival';
/** Defined before anything else. */
const GUARD = `(define (timbre_guard marker thunk)
  (set! timbre_ok nil)
  (unwind-protect (begin (thunk) (set! timbre_ok t)) nil)
  (format stderr "%s %s\\n" marker (if timbre_ok "ok" "error")))
`;
/** Stderr kept for an error's message, per command. */
const STDERR_BYTES = 16 * 1024;
/** How long a closed process may take to read the end of its input and exit before it is killed. */
const CLOSE_GRACE_MS = 2000;

/** A string as a Scheme string literal: backslashes and quotes escaped. */
export function schemeString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/** Finds `<marker> ok|error` among the lines seen; undefined while it has not come. */
export function completionOf(lines: readonly string[], marker: string): 'ok' | 'error' | undefined {
  for (const line of lines) {
    const match = new RegExp(`${marker} (ok|error)\\s*$`).exec(line);
    if (match?.[1] === 'ok' || match?.[1] === 'error') return match[1];
  }
  return undefined;
}

interface Pending {
  marker: string;
  settle(outcome: 'ok' | 'error' | Error): void;
}

/** One running festival. Commands go one at a time (FestivalPool orders them). */
export class FestivalProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<void>;
  private readonly id = randomBytes(6).toString('hex');
  private count = 0;
  private partial = '';
  private stderr = '';
  private pending: Pending | undefined;
  private dead = false;

  private constructor() {
    this.child = spawn(PROGRAM, ['--pipe'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.once('error', () => resolve()); // not started at all (ENOENT): no exit follows
    });
    void this.exited.then(() => this.onExit());
    this.child.stdin.on('error', () => {
      // Writing to a process that has just died: its exit tells what happened.
    });
    this.child.stdout.resume(); // nothing is read there, but a full pipe would stop festival
    this.child.stderr.on('data', (chunk: Buffer) => this.onStderr(String(chunk)));
    this.child.stdin.write(GUARD);
    this.hold(false);
  }

  /** Starts festival with `definitions`, then runs `first` (which selects the voice) as a guarded command. */
  static async start(definitions: string, first: string, signal: AbortSignal): Promise<FestivalProcess> {
    signal.throwIfAborted();
    const festival = new FestivalProcess();
    festival.child.stdin.write(definitions);
    try {
      await festival.run(first, signal);
      return festival;
    } catch (error) {
      await festival.kill();
      throw error;
    }
  }

  get alive(): boolean {
    return !this.dead;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Runs a command; a SIOD error in it is EngineError('engine_failed') and the process stays.
   * Aborting the signal kills the process, then rejects with the signal's reason.
   */
  run(command: string, signal: AbortSignal): Promise<void> {
    if (this.dead) return Promise.reject(new EngineError('engine_failed', 'festival is no longer running'));
    if (signal.aborted) return Promise.reject(signal.reason);
    const marker = `timbre-${this.id}-${++this.count}`;
    this.stderr = '';
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => void this.kill().then(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        marker,
        settle: (outcome) => {
          signal.removeEventListener('abort', onAbort);
          this.pending = undefined;
          this.hold(false);
          if (signal.aborted) return; // onAbort rejects once the process is gone
          if (outcome === 'ok') resolve();
          else reject(outcome === 'error' ? this.failure('festival failed') : outcome);
        },
      };
      this.hold(true);
      this.child.stdin.write(`(timbre_guard ${schemeString(marker)} (lambda () ${command}))\n`);
    });
  }

  /** Ends the input, which ends festival once the command under way is done; killed if it lingers. */
  async close(): Promise<void> {
    if (this.dead) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await this.exit();
    clearTimeout(timer);
  }

  /** Kills the process at once; resolves when it has exited (and been reaped). */
  async kill(): Promise<void> {
    if (!this.dead) this.child.kill('SIGKILL');
    await this.exit();
  }

  /** Waits for the exit, keeping this process alive until it comes. */
  private async exit(): Promise<void> {
    if (!this.dead) this.hold(true);
    await this.exited;
  }

  /** Stderr lines are kept for the message of a failure, until the command's completion line. */
  private onStderr(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const pending = this.pending;
      const outcome = pending && completionOf([line], pending.marker);
      if (pending && outcome) pending.settle(outcome);
      else if (this.stderr.length < STDERR_BYTES) this.stderr += `${line}\n`;
    }
  }

  private onExit(): void {
    this.dead = true;
    this.hold(false);
    const { exitCode, signalCode } = this.child;
    // details.signal tells a fault (SIGSEGV) from a kill (SIGKILL: a cancellation, a timeout).
    this.pending?.settle(this.failure(`festival stopped (${signalCode ?? `exit ${exitCode}`})`, { signal: signalCode }));
  }

  private failure(message: string, more: Record<string, unknown> = {}): EngineError {
    const said = this.stderr.trim().split('\n').slice(-3).join(' | ') || 'no message';
    return new EngineError('engine_failed', `${message}: ${said}`, { stderr: this.stderr, ...more });
  }

  /**
   * An idle process keeps nothing of this one alive (when this process ends, festival reads the end
   * of its input and exits); one with a command under way does, so the answer is waited for.
   */
  private hold(held: boolean): void {
    if (held) this.child.ref();
    else this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      // Pipes to a child are sockets; their type says only stream.
      if (!(stream instanceof Socket)) continue;
      if (held) stream.ref();
      else stream.unref();
    }
  }
}

interface Slot {
  lock: SerialLock;
  process?: FestivalProcess;
  /** Calls holding or waiting for this slot; a slot in use is never closed to make room. */
  users: number;
}

/**
 * One festival per voice in use, at most `max` of them: making room closes the least recently used
 * idle one. Calls for one voice wait for each other; a process that died or was killed (a
 * cancellation, a piece timeout) is replaced on the next call.
 */
export class FestivalPool {
  /** Ordered from least to most recently used. */
  private readonly slots = new Map<string, Slot>();
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly start: (voice: string, signal: AbortSignal) => Promise<FestivalProcess>,
    private readonly max: number,
  ) {}

  /** Runs a command with the voice's festival, started first if need be. */
  async run(voice: string, command: string, signal: AbortSignal): Promise<void> {
    const slot = this.slots.get(voice) ?? { lock: new SerialLock(), users: 0 };
    this.slots.delete(voice);
    this.slots.set(voice, slot);
    slot.users++;
    this.trim();
    let started = false;
    const turn = slot.lock.run(async () => {
      started = true;
      signal.throwIfAborted();
      if (!slot.process?.alive) slot.process = await this.start(voice, signal);
      await slot.process.run(command, signal);
    });
    try {
      // A cancellation while waiting for the turn ends the wait; once running, the process handles it.
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          if (!started) reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    } finally {
      slot.users--;
      this.trim();
    }
  }

  /** The processes running now, for tests and diagnostics. */
  pids(): number[] {
    return [...this.slots.values()].flatMap((slot) => (slot.process?.alive && slot.process.pid ? [slot.process.pid] : []));
  }

  /** Ends every process; resolves when all have exited. */
  async dispose(): Promise<void> {
    const processes = [...this.slots.values()].flatMap((slot) => (slot.process ? [slot.process] : []));
    this.slots.clear();
    await Promise.all([...processes.map((process) => process.close()), ...this.closing]);
  }

  private trim(): void {
    for (const [voice, slot] of this.slots) {
      if (this.slots.size <= this.max) return;
      if (slot.users > 0) continue;
      this.slots.delete(voice);
      const process = slot.process;
      if (!process) continue;
      const closed = process.close().finally(() => this.closing.delete(closed));
      this.closing.add(closed);
    }
  }
}
