import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineClient, type CallOptions, type EngineCall, type EngineMethod, type EngineResult } from './calls.js';
import type { FromHost, ToHost } from './protocol.js';
import { isResultOf } from './results.js';
import { FrameReader } from './sample-frames.js';
import { Readable } from 'node:stream';
import { EngineError } from '../../errors.js';
import type { EngineId } from '../engine-ids.js';
import { probeEngine } from '../registry.js';
import type { Availability } from '../types.js';
import { INSTALL_DIR } from '../../install-dir.js';

export interface EngineHostOptions {
  modelsDir: string;
  /** Host processes running jobs side by side; 1 on CPU so jobs never fight for cores. */
  poolSize: number;
  /** A job running longer is killed with `engine_timeout`. */
  jobTimeoutMs: number;
  /** A built-in engine's program running longer on one piece of text fails the job with `engine_piece_timeout`. */
  pieceTimeoutSeconds: number;
  /** Engines unused this long are unloaded inside the host. */
  idleUnloadSeconds: number;
  /** A host whose resident memory passes this is killed and the job fails with `engine_out_of_memory`. */
  memoryLimitBytes: number;
  /** How long a cancelled job may take to stop before its host is killed. */
  cancelGraceMs: number;
  /** Accept test-only fault messages (crash, hang, allocate). */
  faults?: boolean;
}

interface Job {
  id: number;
  message: ToHost;
  options: CallOptions;
  resolve(value: unknown): void;
  reject(error: EngineError): void;
}

interface HostProcess {
  child: ChildProcess;
  ready: Promise<void>;
  frames: FrameReader;
  /** Messages are handled one after another: one waiting for its frames holds back those after it. */
  inbox: Promise<void>;
  job?: Job;
  /** Why the supervisor killed this host, so the running job fails with that reason. */
  killedFor?: EngineError;
  watchdog?: NodeJS.Timeout;
}

/**
 * Compiled, the worker is the bundle's dist/platform/engines/host/worker.js and runs on plain node.
 * Run from the sources (`npm run dev`, tests), this file is .ts and so is the worker, which then
 * needs tsx too.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER = join(INSTALL_DIR, FROM_SOURCES ? 'src/platform/engines/host/worker.ts' : 'dist/platform/engines/host/worker.js');
const WORKER_EXEC_ARGV = FROM_SOURCES ? ['--import', 'tsx'] : ['--enable-source-maps'];
const MEMORY_POLL_MS = 250;

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
  return kib ? Number(kib) * 1024 : 0;
}

/**
 * Runs engine jobs in supervised child processes. A crash, hang or memory blow-up fails only the
 * job that caused it; the next job gets a fresh host.
 */
export class EngineHost extends EngineClient {
  private readonly hosts: HostProcess[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private restarts = 0;
  private loaded: string[] = [];
  private closed = false;

  constructor(private readonly options: EngineHostOptions) {
    super();
  }

  run<M extends EngineMethod>(engine: EngineId, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    const id = this.nextId++;
    const stream = options.onAudio !== undefined;
    return this.enqueue(id, { type: 'run', id, engine, stream, ...call }, options).then((value) => {
      if (isResultOf(call.method, value)) return value;
      throw new EngineError('engine_failed', `The engine host answered ${call.method} on ${engine} with something else`);
    });
  }

  /** Probes read files only: nothing native loads in this process. */
  available(engine: EngineId): Promise<Availability> {
    return probeEngine(this.options.modelsDir, engine);
  }

  /** Test-only: makes the host crash, hang or exhaust memory while running a job. */
  fault(kind: 'crash' | 'hang' | 'allocate', options: CallOptions = {}): Promise<unknown> {
    const id = this.nextId++;
    return this.enqueue(id, { type: 'fault', id, fault: kind }, options);
  }

  status() {
    return {
      pool_size: this.options.poolSize,
      hosts_running: this.hosts.length,
      busy: this.hosts.filter((host) => host.job).length,
      queued: this.queue.length,
      restarts: this.restarts,
      loaded_engines: this.loaded,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new EngineError('cancelled', 'The service is shutting down'));
    await Promise.all(this.hosts.map((host) => this.kill(host, new EngineError('cancelled', 'The service is shutting down'))));
  }

  private enqueue(id: number, message: ToHost, options: CallOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(new EngineError('cancelled', 'The service is shutting down'));
    if (options.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'The job was cancelled'));
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => this.cancel(job);
      // One signal often spans many calls (a long-form job), so each call removes its listener.
      const settled = () => options.signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        id,
        message,
        options,
        resolve: (value) => {
          settled();
          resolve(value);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const host = this.hosts.find((candidate) => !candidate.job && !candidate.killedFor) ?? this.spawnIfRoom();
      if (!host) return;
      // A quick job's call goes first: it waits for a running call, never for a long job's next ones.
      const quick = this.queue.findIndex((waiting) => waiting.options.quick);
      const [job] = this.queue.splice(Math.max(quick, 0), 1);
      host.job = job!;
      void this.start(host, job!);
    }
  }

  private async start(host: HostProcess, job: Job): Promise<void> {
    await host.ready;
    if (host.job !== job) return;
    const timeoutMs = job.options.timeoutMs ?? this.options.jobTimeoutMs;
    const startedAt = Date.now();
    host.watchdog = setInterval(() => void this.watch(host, job, timeoutMs, startedAt), MEMORY_POLL_MS);
    host.child.send(job.message);
  }

  private async watch(host: HostProcess, job: Job, timeoutMs: number, startedAt: number): Promise<void> {
    if (host.job !== job || host.killedFor) return;
    if (Date.now() - startedAt > timeoutMs) {
      await this.kill(host, new EngineError('engine_timeout', `The engine did not finish within ${Math.round(timeoutMs / 1000)} s`, { timeout_ms: timeoutMs }));
      return;
    }
    const rss = host.child.pid ? await residentBytes(host.child.pid) : 0;
    if (rss > this.options.memoryLimitBytes && host.job === job) {
      await this.kill(
        host,
        new EngineError('engine_out_of_memory', 'The engine used more memory than allowed', { rss_bytes: rss, limit_bytes: this.options.memoryLimitBytes }),
      );
    }
  }

  private spawnIfRoom(): HostProcess | undefined {
    if (this.hosts.length >= this.options.poolSize) return undefined;
    const child = fork(WORKER, [], {
      execArgv: WORKER_EXEC_ARGV,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'inherit', 'ipc', 'pipe'],
      env: {
        ...process.env,
        TIMBRE_MODELS_DIR: this.options.modelsDir,
        TIMBRE_ENGINE_IDLE_SECONDS: String(this.options.idleUnloadSeconds),
        TIMBRE_ENGINE_PIECE_SECONDS: String(this.options.pieceTimeoutSeconds),
        TIMBRE_ENGINE_HOST_FAULTS: this.options.faults ? '1' : '0',
      },
    });
    // Native libraries print to stdout; the service's stdout is reserved for its own address line.
    child.stdout?.pipe(process.stderr);
    let markReady: () => void = () => undefined;
    const pipe = child.stdio[4];
    if (!(pipe instanceof Readable)) throw new Error('The engine host was started without its sample pipe');
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const host: HostProcess = { child, ready, frames: new FrameReader(pipe), inbox: Promise.resolve() };
    child.on('message', (message: FromHost) => {
      if (message.type === 'ready') markReady();
      // A host that dies with frames unsent fails its job on exit; the message waiting for them is dropped.
      else host.inbox = host.inbox.then(() => this.receive(host, message)).catch(() => undefined);
    });
    child.once('exit', (code, signal) => this.onExit(host, code, signal));
    this.hosts.push(host);
    return host;
  }

  private async receive(host: HostProcess, message: Exclude<FromHost, { type: 'ready' }>): Promise<void> {
    if (host.job?.id !== message.id) return;
    if (message.type === 'progress') {
      host.job.options.onProgress?.(message.fraction, message.stage);
      return;
    }
    if (message.type === 'audio') {
      const piece = await host.frames.attach(message.piece, message.frames);
      // Checked like a result: a host sending something else is not passed on.
      if (host.job?.id === message.id && isResultOf('synthesize', piece)) host.job.options.onAudio?.(piece);
      return;
    }
    const value = message.type === 'result' ? await host.frames.attach(message.value, message.frames) : undefined;
    const job = host.job;
    if (job?.id !== message.id) return;
    this.loaded = message.loaded;
    this.finish(host);
    if (message.type === 'result') job.resolve(value);
    else job.reject(new EngineError(message.error.code, message.error.message, message.error.details));
    this.dispatch();
  }

  private onExit(host: HostProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const index = this.hosts.indexOf(host);
    if (index >= 0) this.hosts.splice(index, 1);
    this.loaded = [];
    const job = host.job;
    this.finish(host);
    if (job) {
      this.restarts++;
      job.reject(
        host.killedFor ??
          new EngineError('engine_crashed', `The engine host stopped (${signal ?? `exit ${code}`}) while running this job`, { signal, exit_code: code }),
      );
    }
    if (!this.closed) this.dispatch();
  }

  private finish(host: HostProcess): void {
    clearInterval(host.watchdog);
    host.job = undefined;
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(new EngineError('cancelled', 'The job was cancelled'));
      return;
    }
    const host = this.hosts.find((candidate) => candidate.job === job);
    if (!host) return;
    host.child.send({ type: 'cancel', id: job.id } satisfies ToHost);
    // An engine stuck in native code cannot see the cancellation; end its process instead.
    setTimeout(() => {
      if (host.job === job) void this.kill(host, new EngineError('cancelled', 'The job was cancelled'));
    }, this.options.cancelGraceMs).unref();
  }

  private kill(host: HostProcess, reason: EngineError): Promise<void> {
    if (host.child.exitCode !== null || host.child.signalCode !== null) return Promise.resolve();
    host.killedFor ??= reason;
    const exited = new Promise<void>((resolve) => host.child.once('exit', () => resolve()));
    host.child.kill('SIGKILL');
    return exited;
  }
}
