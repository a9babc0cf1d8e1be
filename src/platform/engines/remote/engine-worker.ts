/**
 * A compute worker: takes engine calls from the queues of the engines this machine has and runs
 * them on its own engine host, sending progress, streamed audio and the answer back through a
 * stream per call. Stateless: everything it needs comes with the job.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EngineClient } from '../host/calls.js';
import { ENGINE_IDS, type EngineId } from '../engine-ids.js';
import { EngineError, errorText } from '../../errors.js';
import { announce, HEARTBEAT_MS, withdraw } from './announcements.js';
import { checkedCall, checkedJob } from './checked-call.js';
import { CLOSE_DEADLINE_MS, withinDeadline } from './unavailable.js';
import { voiceSet, type VoiceSet } from './voice-sets.js';
import { CANCEL_CHANNEL, callKeys, fromPieces, queueName, toPieces, type OutKind } from './wire.js';
import type { Log } from '../../log.js';

export interface EngineWorkerOptions {
  url: string;
  /** The engine host calls run on. */
  engines: EngineClient;
  /** The engines that speak: their voices decide which of their calls this worker takes. */
  synthesizers: ReadonlySet<EngineId>;
  /** Calls this worker runs at once, over all its engines. */
  slots: number;
  /** A worker silent this long loses its calls to another (BullMQ's lock and stalled check). */
  stallMs: number;
  log: Log;
}

/** How long a call's answer stays in Redis past its timeout, for an API node that reads it late. */
const ANSWER_TTL_MARGIN_MS = 5 * 60 * 1000;

export class EngineWorker {
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly workers: Worker[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly voiceSets = new Map<EngineId, VoiceSet>();
  private free: number;
  private readonly waiting: (() => void)[] = [];
  private completed = 0;
  private heartbeat?: NodeJS.Timeout;
  /** Stopping: no more calls are taken, and `whenIdle` is told when the running ones have ended. */
  private draining = false;
  private whenIdle?: () => void;
  /** Closing without waiting for the running calls: they are left to other workers. */
  private leaving = false;

  constructor(private readonly options: EngineWorkerOptions) {
    this.free = options.slots;
    this.redis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.subscriber = new Redis(options.url, { maxRetriesPerRequest: null });
    for (const connection of [this.redis, this.subscriber]) connection.on('error', (error) => options.log.debug({ err: error }, 'queue connection'));
  }

  /** Finds the engines this machine can run and their voices, announces them and starts taking their calls. */
  async start(): Promise<EngineId[]> {
    await Promise.all(ENGINE_IDS.map((engine) => this.findVoiceSet(engine)));
    await this.subscriber.subscribe(CANCEL_CHANNEL);
    this.subscriber.on('message', (_channel: string, call: string) => this.running.get(call)?.abort(new EngineError('cancelled', 'The job was cancelled')));
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_MS);
    for (const [engine, set] of this.voiceSets) {
      const worker = new Worker(queueName(engine, set.id), (job) => this.process(job), {
        connection: this.redis,
        concurrency: this.options.slots,
        lockDuration: this.options.stallMs,
        stalledInterval: this.options.stallMs,
        // A call that stalls twice (two workers died running it) fails rather than kill a third.
        maxStalledCount: 2,
      });
      worker.on('error', (error) => this.options.log.debug({ err: error, engine }, 'queue worker'));
      this.workers.push(worker);
    }
    return ENGINE_IDS.filter((engine) => this.voiceSets.has(engine));
  }

  /** An engine that fails to list its voices here is left out rather than announced with none. */
  private async findVoiceSet(engine: EngineId): Promise<void> {
    if (!(await this.options.engines.available(engine)).available) return;
    try {
      const voices = this.options.synthesizers.has(engine) ? (await this.options.engines.listVoices(engine)).map((voice) => voice.id) : [];
      this.voiceSets.set(engine, voiceSet(voices));
    } catch (error) {
      this.options.log.warn({ err: error, engine }, 'the engine could not list its voices; this worker leaves it out');
    }
  }

  /**
   * Stops taking calls and lets the running ones finish for up to `drainMs`. Calls still running
   * then are left unanswered: their locks lapse and the stalled check hands them to another worker,
   * as when a worker dies, instead of failing them.
   */
  async close(drainMs = 0): Promise<void> {
    this.draining = true;
    for (const worker of this.workers) worker.pause(true).catch(() => undefined);
    const idle = new Promise<void>((resolve) => (this.whenIdle = resolve));
    this.noticeIdle();
    const drained = await withinDeadline(idle, Math.max(1, drainMs)).then(
      () => true,
      () => false,
    );
    this.leaving = !drained;
    clearInterval(this.heartbeat);
    for (const controller of this.running.values()) controller.abort(new EngineError('cancelled', 'The worker is leaving'));
    await withinDeadline(Promise.all([...this.workers.map((worker) => worker.close(true)), withdraw(this.redis, this.id)]), CLOSE_DEADLINE_MS).catch(
      () => undefined,
    );
    this.redis.disconnect();
    this.subscriber.disconnect();
  }

  private beat(): Promise<void> {
    return announce(
      this.redis,
      { id: this.id, host: hostname(), slots: this.options.slots, running: this.running.size, completed: this.completed, last_seen: new Date().toISOString() },
      this.voiceSets,
    );
  }

  private async process(job: Job): Promise<void> {
    let data;
    try {
      data = checkedJob(job.data);
    } catch (error) {
      throw new UnrecoverableError(errorText(error));
    }
    const keys = callKeys(data.call);
    // Each run writes under its own tag: the reader drops what an earlier, stalled run left half-sent.
    const out = new AnswerStream(this.redis, keys.out, randomUUID().slice(0, 8), data.timeoutMs + ANSWER_TTL_MARGIN_MS);
    await this.slot();
    const controller = new AbortController();
    this.running.set(data.call, controller);
    try {
      if (await this.redis.exists(keys.cancelled)) throw new EngineError('cancelled', 'The job was cancelled');
      const pieces = await this.redis.lrangeBuffer(keys.args, 0, -1);
      if (pieces.length !== data.pieces) throw new EngineError('invalid_engine_call', 'The call’s arguments are missing or incomplete');
      const call = checkedCall(data.method, fromPieces(pieces));
      const value = await this.options.engines.run(data.engine, call, {
        signal: controller.signal,
        timeoutMs: data.timeoutMs,
        quick: data.quick,
        onProgress: (fraction, stage) => out.post('progress', { fraction, stage }),
        onAudio: data.stream ? (piece) => out.post('audio', piece) : undefined,
      });
      await out.send('result', value);
      this.completed++;
    } catch (error) {
      // Neither answered nor settled, so BullMQ does not end the job: it goes to another worker.
      if (this.leaving) return new Promise<never>(() => undefined);
      const failure = error instanceof EngineError ? error : new EngineError('engine_failed', errorText(error));
      await out.send('error', { code: failure.code, message: failure.message, details: failure.details });
    } finally {
      this.running.delete(data.call);
      this.release();
      this.noticeIdle();
    }
  }

  private noticeIdle(): void {
    if (this.draining && this.running.size === 0 && this.waiting.length === 0) this.whenIdle?.();
  }

  /**
   * Waits for one of the machine's slots: its queues share them. The queues stop taking calls while
   * every slot is busy, so calls wait in Redis for any machine with a free slot rather than here
   * for this one; a call taken just before the pause waits here for the next slot.
   */
  private async slot(): Promise<void> {
    if (this.free > 0) {
      if (--this.free === 0) for (const worker of this.workers) worker.pause(true).catch(() => undefined);
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) return next();
    if (this.free++ === 0 && !this.draining) for (const worker of this.workers) worker.resume();
  }
}

/** The answer of one run of a call, in order, each value cut into bounded pieces. */
class AnswerStream {
  private sequence = 0;
  private outbox = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly run: string,
    private readonly ttlMs: number,
  ) {}

  /** Sends without waiting; a failure shows when the answer is sent. */
  post(kind: OutKind, value: unknown): void {
    this.send(kind, value).catch(() => undefined);
  }

  send(kind: OutKind, value: unknown): Promise<void> {
    const sequence = this.sequence++;
    const pieces = toPieces(value);
    this.outbox = this.outbox.then(async () => {
      const batch = this.redis.multi();
      pieces.forEach((piece, index) => {
        const last = index === pieces.length - 1 ? '1' : '0';
        batch.xadd(this.key, '*', 'kind', kind, 'run', this.run, 'seq', String(sequence), 'last', last, 'data', piece);
      });
      batch.pexpire(this.key, this.ttlMs);
      await batch.exec();
    });
    return this.outbox;
  }
}
