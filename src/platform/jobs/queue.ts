import { ApiError, EngineError } from '../errors.js';
import type { EventBus, JobEventData, JobEventType } from '../events.js';
import type { JobRepository } from './job-repository.js';
import type { Log } from '../log.js';
import { jobNotFound, needsLogging, newJobRecord, now, publishJobEvent, toJobError } from './records.js';
import { queueStatus, type QueueStatus } from './status.js';
import { RunningJob } from './running-job.js';
import type { Static, TSchema } from 'typebox';
import { assertPayload, payloadFits, registeredKind, type JobKind, type KindRunner, type RegisteredKind, type SubmitJob } from './kinds.js';
import { FINISHED_STATES, type JobRecord } from './types.js';

export interface JobQueueOptions {
  jobs: JobRepository;
  events: EventBus;
  /** Jobs running side by side; 1 on CPU so jobs never fight for cores (see setConcurrency). */
  concurrency: number;
  /** Waiting jobs beyond which `submit` refuses with `queue_full`. */
  maxQueued: number;
  /** Where failures that clients see only as a fixed message (bugs, engine failures) are logged. */
  log?: Log;
}

/** Completed jobs of a kind whose mean run time estimates the wait; quick jobs that may run beside the others (one, so a sentence never waits for a long job). */
const [DURATION_SAMPLE, QUICK_LANE] = [20, 1];
type Outcome = { result: Record<string, unknown> } | { error: unknown };

/**
 * The one compute queue: every synthesis, clone, design, transcription and render runs here, first in first out,
 * at most `concurrency` at a time, plus a quick lane: while every slot is taken, the first quick job waiting (a
 * sentence to speak, see JobKind.quick) starts beside the running jobs instead of waiting for them, one at a time;
 * a job that computes nothing (a model download, JobKind.computes) starts at once and holds no slot.
 * Every state change is written to SQLite and published to the job's owner (or to everyone for jobs without an
 * owner). Only `submit` can fail for a full disk; later saves are kept in memory and retried until they land
 * (JobRepository.save), so jobs, their waiters and their events move on regardless.
 */
export class JobQueue {
  private readonly kinds = new Map<string, RegisteredKind>();
  private readonly queued: JobRecord[] = [];
  private readonly running = new Map<string, RunningJob>();
  private readonly waiters = new Map<string, ((record: JobRecord) => void)[]>();
  private pumpScheduled = false;
  private closed = false;
  private concurrency = 1;

  constructor(private readonly options: JobQueueOptions) {
    this.setConcurrency(options.concurrency);
  }

  /** With workers it follows their slots, so waiting jobs start as a machine joins; jobs beyond a lowered number finish. */
  setConcurrency(concurrency: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`Job concurrency must be a positive integer, not ${concurrency}`);
    this.concurrency = concurrency;
    this.schedulePump();
  }

  register<S extends TSchema>(kind: JobKind<S>, runner: KindRunner<S>): void {
    if (this.kinds.has(kind.name)) throw new Error(`A runner for job kind ${kind.name} is already registered`);
    this.kinds.set(kind.name, registeredKind(kind, runner));
  }

  /** Queues a job; it starts on a later tick, so the record returned is always `queued`. */
  submit<S extends TSchema>(input: SubmitJob<S>): JobRecord {
    if (this.kinds.get(input.kind.name)?.kind !== input.kind) throw new Error(`No runner is registered for job kind ${input.kind.name}`);
    assertPayload(input.kind, input.payload);
    const { maxQueued } = this.options;
    if (this.waitingCount() >= maxQueued) {
      throw new ApiError(503, 'queue_full', `${maxQueued} jobs are already waiting; try again later`, { max_queued: maxQueued });
    }
    const record = newJobRecord({ ...input, kind: input.kind.name });
    this.options.jobs.insert(record);
    this.enqueue(record);
    return { ...record };
  }

  /** The terminal record; a failed or cancelled job resolves too. Only an unknown id rejects. */
  wait(jobId: string): Promise<JobRecord> {
    if (!this.activeRecord(jobId)) {
      const stored = this.options.jobs.findById(jobId);
      if (!stored) return Promise.reject(jobNotFound(jobId));
      if (FINISHED_STATES.has(stored.state)) return Promise.resolve(stored);
    }
    // Also reached for a job still queued in SQLite before recover() picks it up.
    return new Promise((resolve) => this.waiters.set(jobId, [...(this.waiters.get(jobId) ?? []), resolve]));
  }

  /**
   * A queued job is cancelled at once. A running one has its signal aborted and is returned still
   * `running`: it becomes `cancelled` when its runner settles (see `wait`).
   */
  cancel(jobId: string): JobRecord {
    const running = this.running.get(jobId);
    if (running) {
      running.controller.abort(new EngineError('cancelled', 'The job was cancelled'));
      return { ...running.record };
    }
    const index = this.queued.findIndex((job) => job.id === jobId);
    const [record] = index >= 0 ? this.queued.splice(index, 1) : [];
    if (record) {
      this.finish(record, 'cancelled', {});
      return { ...record };
    }
    const stored = this.options.jobs.findById(jobId);
    if (!stored) throw jobNotFound(jobId);
    throw new ApiError(409, 'job_not_cancellable', `Job ${jobId} is ${stored.state}`, { job_id: jobId, state: stored.state });
  }

  get(jobId: string): JobRecord | undefined {
    const active = this.activeRecord(jobId);
    return active ? { ...active } : this.options.jobs.findById(jobId);
  }

  /** The payload of a job of `kind`, when it is one and its payload fits. */
  payloadOf<S extends TSchema>(kind: JobKind<S>, jobId: string): Static<S> | undefined {
    const record = this.get(jobId);
    return record?.kind === kind.name && payloadFits(kind, record.payload) ? record.payload : undefined;
  }

  status(): QueueStatus {
    const running = [...this.running.values()].map((job) => job.record);
    return queueStatus(this.concurrency, running, this.queued, (kind) => this.options.jobs.meanDurationSeconds(kind, DURATION_SAMPLE));
  }

  /** The running jobs, then the queued ones in order, that `matches` picks. */
  active(matches: (record: JobRecord) => boolean): JobRecord[] {
    return [...[...this.running.values()].map((job) => job.record), ...this.queued].filter(matches).map((record) => ({ ...record }));
  }

  /**
   * Call once at start, after every runner is registered. Restart policy:
   * - a job that was `running` runs again if its kind is resumable (it goes back to the queue, in its original
   *   order); otherwise it fails with `interrupted`: its engine call died with the process and a half-done run
   *   cannot be resumed;
   * - a job that was `queued` runs again, in its original order: it never started, its payload is in SQLite, and
   *   its owner may still be waiting for it (task status, WebSocket). Only a queued job of a kind no runner
   *   handles any more fails with `interrupted` instead.
   */
  recover(): { requeued: number; interrupted: number } {
    let requeued = 0;
    let interrupted = 0;
    const stopped = this.options.jobs.listByState('running').filter((record) => !this.activeRecord(record.id));
    const waiting = this.options.jobs.listByState('queued').filter((record) => !this.activeRecord(record.id));
    for (const record of stopped.filter((job) => !this.isResumable(job.kind))) {
      this.interrupt(record, 'The service stopped while the job was running');
      interrupted += 1;
    }
    const resumed = stopped.filter((job) => this.isResumable(job.kind)).map((record) => ({ ...record, state: 'queued' as const, progress: 0, stage: null }));
    for (const record of resumed) this.options.jobs.save(record);
    for (const record of [...resumed, ...waiting].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
      if (this.kinds.has(record.kind)) {
        this.enqueue(record);
        requeued += 1;
      } else {
        this.interrupt(record, `No runner handles job kind ${record.kind} any more`);
        interrupted += 1;
      }
    }
    return { requeued, interrupted };
  }

  /**
   * Aborts the running jobs and resolves once they have stopped; starts nothing more. A stopped job of a resumable
   * kind goes back to `queued` (it goes on after the next start, like a job that never started); any other ends
   * `cancelled`. Queued jobs stay queued in SQLite and run after the next start (recover), so `wait` on one of them
   * does not settle in this process.
   */
  async close(): Promise<void> {
    this.closed = true;
    const stopping = [...this.running.values()];
    for (const job of stopping) job.controller.abort(new EngineError('cancelled', 'The service is stopping'));
    await Promise.all(stopping.map((job) => this.wait(job.record.id)));
  }

  private isResumable(kind: string): boolean {
    return this.kinds.get(kind)?.kind.resumable ?? false;
  }

  /** Jobs still waiting once the next tick fills the free slots: a burst of submits counts alike. */
  private waitingCount(): number {
    const free = this.closed ? 0 : this.concurrency - [...this.running.values()].filter((job) => job.lane === 'main').length;
    return Math.max(0, this.queued.length - free);
  }

  private activeRecord(jobId: string): JobRecord | undefined {
    return this.running.get(jobId)?.record ?? this.queued.find((job) => job.id === jobId);
  }

  private enqueue(record: JobRecord): void {
    this.queued.push(record);
    this.publish(record, 'job.queued', { position: this.queued.length });
    this.schedulePump();
  }

  /** Starting on a microtask lets the caller of submit see `queued` and subscribe before the runner runs. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    for (let next = this.nextToStart(); next && !this.closed; next = this.nextToStart()) {
      const [record] = this.queued.splice(next.index, 1);
      this.start(record!, next.lane);
    }
  }

  /** A job that computes nothing starts at once; the head of the line takes a free slot; with none, the first quick job takes the quick lane's. */
  private nextToStart(): { index: number; lane: RunningJob['lane'] } | undefined {
    const aside = this.queued.findIndex((record) => this.kinds.get(record.kind)?.kind.computes === false);
    if (aside >= 0) return { index: aside, lane: 'side' };
    if (this.queued.length === 0) return undefined;
    const inLane = (lane: RunningJob['lane']) => [...this.running.values()].filter((job) => job.lane === lane).length;
    if (inLane('main') < this.concurrency) return { index: 0, lane: 'main' };
    if (inLane('quick') >= QUICK_LANE) return undefined;
    const index = this.queued.findIndex((record) => this.isQuick(record));
    return index < 0 ? undefined : { index, lane: 'quick' };
  }

  private isQuick(record: JobRecord): boolean {
    return this.kinds.get(record.kind)?.isQuick(record.payload) ?? false;
  }

  private start(record: JobRecord, lane: RunningJob['lane']): void {
    const registered = this.kinds.get(record.kind);
    if (!registered) throw new Error(`No runner is registered for job kind ${record.kind}`);
    record.state = 'running';
    record.startedAt = now();
    this.options.jobs.save(record);
    const sink = {
      save: (saved: JobRecord) => this.options.jobs.save(saved),
      publishProgress: (running: JobRecord, data: JobEventData['job.progress']) => this.publish(running, 'job.progress', data),
    };
    const job = new RunningJob(record, sink, lane, this.isQuick(record));
    // Before the event: a listener asking what runs (a task's status) must find this job running.
    this.running.set(record.id, job);
    this.publish(record, 'job.started', {});
    const context = job.context;
    // Through a promise so that a runner throwing synchronously fails its job like a rejection.
    Promise.resolve()
      .then(() => registered.run(record.payload, context, { ...record }))
      .then(
        (result) => this.settle(job, { result }),
        (error: unknown) => this.settle(job, { error }),
      );
  }

  /** An aborted signal wins over the outcome: a cancelled runner often ends by throwing its reason. */
  private settle(job: RunningJob, outcome: Outcome): void {
    const { record } = job;
    job.stop();
    this.running.delete(record.id);
    if (job.controller.signal.aborted && this.closed && this.isResumable(record.kind)) {
      this.putBack(record);
    } else if (job.controller.signal.aborted) {
      this.finish(record, 'cancelled', {});
    } else if ('result' in outcome) {
      record.progress = 1;
      record.result = outcome.result ?? {};
      this.finish(record, 'completed', record.result);
    } else {
      record.error = toJobError(outcome.error);
      if (needsLogging(outcome.error)) this.options.log?.error({ err: outcome.error, job_id: record.id, kind: record.kind }, 'job failed');
      this.finish(record, 'failed', { error: record.error });
    }
    this.schedulePump();
  }

  /** A resumable job stopped with the service: queued again in SQLite, for `recover` to run. */
  private putBack(record: JobRecord): void {
    Object.assign(record, { state: 'queued', progress: 0, stage: null, startedAt: null });
    this.options.jobs.save(record);
    this.resolveWaiters(record);
  }

  private interrupt(record: JobRecord, message: string): void {
    record.error = { code: 'interrupted', message, details: {} };
    this.finish(record, 'failed', { error: record.error });
  }

  /** Records a terminal state, tells the owner, and resolves everyone waiting for the job. */
  private finish<S extends 'completed' | 'failed' | 'cancelled'>(record: JobRecord, state: S, data: JobEventData[`job.${S}`]): void {
    record.state = state;
    record.finishedAt = now();
    this.options.jobs.save(record);
    this.publish(record, `job.${state}`, data);
    this.resolveWaiters(record);
  }

  private resolveWaiters(record: JobRecord): void {
    for (const resolve of this.waiters.get(record.id) ?? []) resolve({ ...record });
    this.waiters.delete(record.id);
  }

  private publish<T extends JobEventType>(record: JobRecord, type: T, data: JobEventData[T]): void {
    publishJobEvent(this.options.events, record, type, data);
  }
}
