/**
 * The API node's engine client when work goes to workers: each call becomes a BullMQ job on the
 * queue of its engine and voice set (routing.ts), its arguments go beside it in bounded pieces, and
 * its answer (progress, streamed audio, result or error) comes back through a Redis stream, checked
 * like the local host's.
 */
import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { EngineClient, type CallOptions, type EngineCall, type EngineMethod, type EngineResult } from '../host/calls.js';
import { isResultOf } from '../host/results.js';
import type { EngineId } from '../engine-ids.js';
import type { Availability } from '../types.js';
import { EngineError } from '../../errors.js';
import type { Log } from '../../log.js';
import { HEARTBEAT_MS, liveWorkers, type WorkerAnnouncement } from './announcements.js';
import { AnswerReader } from './answer-reader.js';
import { callKeys, CANCEL_CHANNEL, queueName, toPieces, type CallJob } from './wire.js';
import { CallRouter, voiceSetsOf } from './routing.js';
import { CLOSE_DEADLINE_MS, executed, noWorker, withinDeadline, QUEUE_DEADLINE_MS } from './unavailable.js';

export interface QueuedEnginesOptions {
  url: string;
  /** A call's timeout when it names none, as on the local host. */
  jobTimeoutMs: number;
  /** How long a cancelled call may take to stop on its worker before the API node gives up on it. */
  cancelGraceMs: number;
  log: Log;
  /** Told the live workers' slots in all whenever that changes (a worker came, went or was resized). */
  onSlotsChange?: (slots: number) => void;
}

/** Live workers are read at most this often. */
const WORKERS_CACHE_MS = 1000;
/** How long a call's arguments stay in Redis past its timeout (a call waits for a free worker first). */
const ARGUMENTS_TTL_MARGIN_MS = 60 * 60 * 1000;

export class QueuedEngines extends EngineClient {
  private readonly redis: Redis;
  private readonly queues = new Map<string, { engine: EngineId; queue: Queue }>();
  private readonly router: CallRouter;
  private readonly idleReaders: Redis[] = [];
  private workersRead?: { at: number; workers: Promise<WorkerAnnouncement[]> };
  private slots = 0;
  /** Settles when the first connection is up, or gave up: commands sent before it would fail at once. */
  private readonly firstConnection: Promise<void>;
  /** Reads the announcements as often as workers write them, so a machine joining is put to work at once. */
  private readonly watch: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: QueuedEnginesOptions) {
    super();
    // No offline queue: while Redis is away a command fails at once instead of waiting for it.
    this.redis = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: QUEUE_DEADLINE_MS });
    this.redis.on('error', (error) => options.log.debug({ err: error }, 'queue connection'));
    this.router = new CallRouter(this.redis);
    this.firstConnection = new Promise((resolve) => {
      this.redis.once('ready', resolve);
      setTimeout(resolve, QUEUE_DEADLINE_MS).unref();
    });
    this.watch = setInterval(() => void this.workers().catch(() => undefined), HEARTBEAT_MS).unref();
  }

  async run<M extends EngineMethod>(engine: EngineId, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    return this.runOn<M>(engine, await this.router.route(await this.workers(), engine, call), call, options);
  }

  /** Every voice of the engine on any live worker: each voice set is asked once. */
  override async listVoices(engine: EngineId, options: CallOptions = {}): Promise<EngineResult<'listVoices'>> {
    const sets = voiceSetsOf(await this.workers(), engine);
    if (sets.length === 0) throw noWorker(engine);
    const lists = await Promise.all(sets.map((set) => this.runOn(engine, set.id, { method: 'listVoices', args: [] }, options)));
    return [...new Map(lists.flat().map((voice) => [voice.id, voice])).values()];
  }

  private async runOn<M extends EngineMethod>(
    engine: EngineId,
    voiceSet: string,
    call: EngineCall & { method: M },
    options: CallOptions,
  ): Promise<EngineResult<M>> {
    if (this.closed) throw new EngineError('cancelled', 'The service is shutting down');
    if (options.signal?.aborted) throw new EngineError('cancelled', 'The job was cancelled');
    const call_id = randomUUID();
    const keys = callKeys(call_id);
    const timeoutMs = options.timeoutMs ?? this.options.jobTimeoutMs;
    const pieces = toPieces(call.args);
    const data: CallJob = {
      call: call_id,
      engine,
      method: call.method,
      pieces: pieces.length,
      stream: options.onAudio !== undefined,
      timeoutMs,
      quick: options.quick ?? false,
    };
    try {
      await executed(
        this.redis
          .multi()
          .rpush(keys.args, ...pieces)
          .pexpire(keys.args, timeoutMs + ARGUMENTS_TTL_MARGIN_MS)
          .exec(),
      );
      // Calls of quick jobs (previews, status) go before the long jobs' calls that wait.
      const job = await withinDeadline(
        this.queue(engine, voiceSet).add(call.method, data, {
          jobId: call_id,
          priority: options.quick ? 1 : 2,
          removeOnComplete: true,
          removeOnFail: { age: 3600 },
        }),
      );
      const value = await this.answer(engine, voiceSet, job, options);
      if (isResultOf(call.method, value)) return value;
      throw new EngineError('engine_failed', `The worker answered ${call.method} on ${engine} with something else`);
    } finally {
      this.redis.del(keys.args, keys.out, keys.cancelled).catch(() => undefined);
    }
  }

  async available(engine: EngineId): Promise<Availability> {
    try {
      const workers = await this.workers();
      return workers.some((worker) => worker.engines.includes(engine)) ? { available: true } : { available: false, reason: `No live worker has ${engine}` };
    } catch (error) {
      return { available: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The engines and voice sets of the live workers: a machine with other voices changes it too. */
  override async enginesVersion(): Promise<string> {
    const sets = new Set((await this.workers()).flatMap((worker) => Object.entries(worker.voice_sets).map(([engine, set]) => `${engine}:${set}`)));
    return [...sets].sort().join(',');
  }

  /** The workers alive now, read from their announcements at most once a second. */
  workers(): Promise<WorkerAnnouncement[]> {
    const now = Date.now();
    if (!this.workersRead || now - this.workersRead.at > WORKERS_CACHE_MS) {
      const workers = withinDeadline(this.firstConnection.then(() => liveWorkers(this.redis)));
      workers.then(
        (live) => this.countSlots(live),
        () => (this.workersRead = undefined),
      );
      this.workersRead = { at: now, workers };
    }
    return this.workersRead.workers;
  }

  override parallelCalls(): number {
    return Math.max(1, this.slots);
  }

  /** What the status page shows: whether Redis answers, the live workers and the calls waiting per engine queue. */
  async status() {
    try {
      const workers = await this.workers();
      const waiting: Partial<Record<EngineId, number>> = {};
      for (const { engine, queue } of this.queues.values()) {
        const count = (await withinDeadline(queue.getWaitingCount())) + (await withinDeadline(queue.getPrioritizedCount()));
        waiting[engine] = (waiting[engine] ?? 0) + count;
      }
      const shown = workers.map(({ id, host, slots, engines, running, completed, last_seen }) => ({ id, host, slots, engines, running, completed, last_seen }));
      return { connected: true, workers: shown, waiting };
    } catch {
      return { connected: false, workers: [], waiting: {} };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watch);
    await withinDeadline(Promise.all([...this.queues.values()].map(({ queue }) => queue.close())), CLOSE_DEADLINE_MS).catch(() => undefined);
    for (const reader of this.idleReaders.splice(0)) reader.disconnect();
    this.redis.disconnect();
  }

  private countSlots(workers: readonly WorkerAnnouncement[]): void {
    const slots = workers.reduce((sum, worker) => sum + worker.slots, 0);
    if (slots === this.slots) return;
    this.slots = slots;
    this.options.onSlotsChange?.(Math.max(1, slots));
  }

  private queue(engine: EngineId, voiceSet: string): Queue {
    const name = queueName(engine, voiceSet);
    let queue = this.queues.get(name)?.queue;
    if (!queue) {
      queue = new Queue(name, { connection: this.redis });
      queue.on('error', (error) => this.options.log.debug({ err: error, engine }, 'queue'));
      this.queues.set(name, { engine, queue });
    }
    return queue;
  }

  private async answer(engine: EngineId, voiceSet: string, job: Job, options: CallOptions): Promise<unknown> {
    // Blocking reads hold their connection, so each waiting call has one; they are kept for the next calls.
    const reader = this.idleReaders.pop() ?? this.redis.duplicate({ commandTimeout: undefined });
    reader.on('error', () => undefined);
    const stop = () => this.cancel(job);
    options.signal?.addEventListener('abort', stop, { once: true });
    let healthy = true;
    try {
      return await new AnswerReader(reader, job, options, {
        queue: this.queue(engine, voiceSet),
        cancelGraceMs: this.options.cancelGraceMs,
        workerGone: async () => !(await this.workers()).some((worker) => worker.voice_sets[engine] === voiceSet),
        noWorker: () => noWorker(engine),
      }).read();
    } catch (error) {
      healthy = !(error instanceof EngineError && error.code === 'queue_unavailable');
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      reader.removeAllListeners('error');
      if (healthy && !this.closed) this.idleReaders.push(reader);
      else reader.disconnect();
    }
  }

  /** Reaches the worker running the call (or takes the call off its queue while it waits). */
  private cancel(job: Job): void {
    const id = job.id ?? '';
    void (async () => {
      // The mark covers a worker that takes the call after the message went out.
      await this.redis.set(callKeys(id).cancelled, '1', 'PX', ARGUMENTS_TTL_MARGIN_MS);
      await this.redis.publish(CANCEL_CHANNEL, id);
      // A waiting job is removed; a running one is locked by its worker and stays until it stops.
      await job.remove().catch(() => undefined);
    })().catch(() => undefined);
  }
}
