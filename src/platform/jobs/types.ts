/**
 * The compute queue's contract. Every synthesis, clone, design, transcription and render is a job:
 * queued, run with bounded concurrency, cancellable, persisted so it survives a restart.
 */
import type { JobError } from '../errors.js';

export type { JobError };

export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** States a job never leaves. */
export const FINISHED_STATES: ReadonlySet<JobState> = new Set(['completed', 'failed', 'cancelled']);

export interface JobRecord {
  id: string;
  kind: string;
  ownerKeyId: string | null;
  taskId: string | null;
  state: JobState;
  /** 0..1 */
  progress: number;
  stage: string | null;
  /** What the runner needs, as JSON: a queued job can run again after a restart. */
  payload: unknown;
  /** What the runner returned; it is also merged into the `job.completed` event. */
  result: Record<string, unknown> | null;
  error: JobError | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface JobRunContext {
  /** Aborted when the job is cancelled or the service stops. */
  signal: AbortSignal;
  /** Reports progress; `extra` (e.g. `{ chunk_index }`) is added to the `job.progress` event. */
  progress(fraction: number, stage?: string, extra?: Record<string, unknown>): void;
  /** A quick job (JobKind.quick): its engine calls should go ahead of a long job's. */
  quick?: boolean;
}
