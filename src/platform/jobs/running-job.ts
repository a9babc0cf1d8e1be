import type { JobEventData } from '../events.js';
import type { JobRecord, JobRunContext } from './types.js';

/** Progress can be reported many times a second; SQLite only needs to be roughly current. */
const PROGRESS_WRITE_INTERVAL_MS = 250;
/**
 * Clients hear from a running job at least this often: engines that work in large steps (a
 * Festival utterance, a model call) are repeated as `job.progress` with the last known fraction.
 */
const PROGRESS_HEARTBEAT_MS = 1000;

interface ProgressSink {
  save(record: JobRecord): void;
  publishProgress(record: JobRecord, data: JobEventData['job.progress']): void;
}

/** A job while it runs: its abort controller and the pace at which its progress is saved and told. */
export class RunningJob {
  readonly controller = new AbortController();
  private lastProgressWrite = 0;
  private lastProgressEvent = Date.now();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    readonly record: JobRecord,
    private readonly sink: ProgressSink,
    /** The lane whose slot the job holds; `side`: none (a job that computes nothing, see JobKind.computes). */
    readonly lane: 'main' | 'quick' | 'side' = 'main',
    private readonly quick = false,
  ) {
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastProgressEvent >= PROGRESS_HEARTBEAT_MS) this.publishProgress({});
    }, PROGRESS_HEARTBEAT_MS / 4);
  }

  get context(): JobRunContext {
    return { signal: this.controller.signal, progress: (fraction, stage, extra) => this.progress(fraction, stage, extra), quick: this.quick };
  }

  /** Ends the heartbeat; the job's end is told by the queue. */
  stop(): void {
    clearInterval(this.heartbeat);
  }

  private progress(fraction: number, stage?: string, extra: Record<string, unknown> = {}): void {
    const { record } = this;
    if (record.state !== 'running' || !Number.isFinite(fraction)) return;
    // Never backwards: parts of one job (a task's chunks) may report out of order when they run side by side.
    record.progress = Math.min(1, Math.max(record.progress, fraction));
    if (stage !== undefined) record.stage = stage;
    // Skipped writes are not lost: the terminal write carries the latest progress.
    const at = Date.now();
    if (at - this.lastProgressWrite >= PROGRESS_WRITE_INTERVAL_MS) {
      this.lastProgressWrite = at;
      this.sink.save(record);
    }
    this.publishProgress(extra);
  }

  private publishProgress(extra: Record<string, unknown>): void {
    this.lastProgressEvent = Date.now();
    this.sink.publishProgress(this.record, { ...extra, progress: this.record.progress, stage: this.record.stage });
  }
}
