/**
 * Reads one call's answer stream on the API node: progress and streamed audio are passed on as
 * they come, then the result or the error ends the call. A worker that died mid-call leaves a
 * partial answer; BullMQ gives the call to another worker, whose run carries a new tag, so the
 * partial value is dropped and audio pieces already passed on are not passed on twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CallOptions } from '../host/calls.js';
import { isObject as isRecord, isResultOf } from '../host/results.js';
import { EngineError } from '../../errors.js';
import { callKeys, fromPieces } from './wire.js';
import { QUEUE_DEADLINE_MS, queueUnavailable, withinDeadline } from './unavailable.js';

/** One blocking read waits this long, so cancellation and the job's state are looked at every second. */
const READ_BLOCK_MS = 1000;

export interface AnswerWatch {
  queue: Queue;
  cancelGraceMs: number;
  /** Whether no live worker can take the call any more while it waits. */
  workerGone(): Promise<boolean>;
  noWorker(): EngineError;
}

type Ending = { value: unknown } | { error: EngineError };

export class AnswerReader {
  private last = '0-0';
  private run?: string;
  private parts: Buffer[] = [];
  private audioInRun = 0;
  private audioPassed = 0;
  private cancelDeadline?: number;
  private failingSince?: number;

  constructor(
    private readonly redis: Redis,
    private readonly job: Job,
    private readonly options: CallOptions,
    private readonly watch: AnswerWatch,
  ) {}

  async read(): Promise<unknown> {
    const key = callKeys(this.job.id ?? '').out;
    for (;;) {
      if (this.options.signal?.aborted) this.cancelDeadline ??= Date.now() + this.watch.cancelGraceMs + READ_BLOCK_MS;
      if (this.cancelDeadline !== undefined && Date.now() > this.cancelDeadline) throw new EngineError('cancelled', 'The job was cancelled');
      const entries = await this.next(key);
      if (entries === undefined) continue;
      if (entries.length === 0) {
        await this.checkJob();
        continue;
      }
      for (const [id, fields] of entries) {
        this.last = id.toString();
        const ending = this.take(fields);
        if (!ending) continue;
        if ('error' in ending) throw ending.error;
        return ending.value;
      }
    }
  }

  /** The next entries; none when the read timed out; undefined after a failed read (retried until the deadline). */
  private async next(key: string): Promise<[Buffer, Buffer[]][] | undefined> {
    try {
      const reply = await withinDeadline(
        this.redis.xreadBuffer('COUNT', 64, 'BLOCK', READ_BLOCK_MS, 'STREAMS', key, this.last),
        READ_BLOCK_MS + QUEUE_DEADLINE_MS,
      );
      this.failingSince = undefined;
      return reply?.[0]?.[1] ?? [];
    } catch (error) {
      this.failingSince ??= Date.now();
      if (Date.now() - this.failingSince >= QUEUE_DEADLINE_MS) throw queueUnavailable(error);
      await sleep(250);
      return undefined;
    }
  }

  private take(fields: Buffer[]): Ending | undefined {
    const entry = new Map<string, Buffer>();
    for (let index = 0; index + 1 < fields.length; index += 2) entry.set(fields[index]!.toString(), fields[index + 1]!);
    const run = entry.get('run')?.toString();
    if (run !== this.run) {
      this.run = run;
      this.parts = [];
      this.audioInRun = 0;
    }
    this.parts.push(entry.get('data') ?? Buffer.alloc(0));
    if (entry.get('last')?.toString() !== '1') return undefined;
    const value = fromPieces(this.parts.splice(0));
    switch (entry.get('kind')?.toString()) {
      case 'progress':
        if (isRecord(value) && typeof value.fraction === 'number')
          this.options.onProgress?.(value.fraction, typeof value.stage === 'string' ? value.stage : undefined);
        return undefined;
      case 'audio':
        // A later run speaks the same pieces again: only those not passed on yet go on.
        if (this.audioInRun++ === this.audioPassed && isResultOf('synthesize', value)) {
          this.audioPassed++;
          this.options.onAudio?.(value);
        }
        return undefined;
      case 'result':
        return { value };
      case 'error':
        return { error: engineError(value) };
      default:
        return { error: new EngineError('engine_failed', 'The worker answered with something else') };
    }
  }

  /** Between answers: a call whose job failed, vanished or lost every worker that could run it ends here. */
  private async checkJob(): Promise<void> {
    const state = await withinDeadline(this.job.getState()).catch(() => 'unreadable');
    if (state === 'failed') {
      const failed = await withinDeadline(Job.fromId(this.watch.queue, this.job.id ?? '')).catch(() => undefined);
      throw new EngineError('engine_crashed', `The worker running this call stopped: ${failed?.failedReason ?? 'no reason given'}`);
    }
    if (state === 'unknown') {
      if (this.cancelDeadline !== undefined) throw new EngineError('cancelled', 'The job was cancelled');
      throw new EngineError('engine_failed', 'The call left the queue without an answer');
    }
    if ((state === 'waiting' || state === 'prioritized') && (await this.watch.workerGone().catch(() => false))) {
      await this.job.remove().catch(() => undefined);
      throw this.watch.noWorker();
    }
  }
}

function engineError(value: unknown): EngineError {
  if (!isRecord(value) || typeof value.code !== 'string' || typeof value.message !== 'string') return new EngineError('engine_failed', 'The worker failed');
  return new EngineError(value.code, value.message, isRecord(value.details) ? value.details : {});
}
