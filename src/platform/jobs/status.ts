import type { JobRecord, JobState } from './types.js';

/** One job as `GET /api/queue/status` shows it. */
export interface JobView {
  job_id: string;
  kind: string;
  task_id: string | null;
  owner_key_id: string | null;
  state: JobState;
  progress: number;
  stage: string | null;
  /** 0 while running, 1 for the next job to start, 2 after it… */
  position: number;
  created_at: string;
  started_at: string | null;
  /** 0 while running; for a queued job an estimate, or null when a kind ahead has no history. */
  estimated_wait_seconds: number | null;
}

export interface QueueStatus {
  concurrency: number;
  running: JobView[];
  queued: JobView[];
}

/** Mean run time in seconds of a kind's recent completed jobs, or null when none completed yet. */
export type MeanDuration = (kind: string) => number | null;

function view(record: JobRecord, position: number, wait: number | null): JobView {
  return {
    job_id: record.id,
    kind: record.kind,
    task_id: record.taskId,
    owner_key_id: record.ownerKeyId,
    state: record.state,
    progress: record.progress,
    stage: record.stage,
    position,
    created_at: record.createdAt,
    started_at: record.startedAt,
    estimated_wait_seconds: wait,
  };
}

/** A tenth of a second is as precise as an estimate built on means deserves. */
function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

/**
 * A queued job waits for the rest of every running job (its kind's mean, less the progress made)
 * plus the whole of every job queued ahead of it, shared out over the concurrency slots. Progress
 * rather than elapsed time keeps the estimate a function of the queue alone. Mixed kinds are why
 * each job ahead uses its own kind's mean; one unknown mean makes the estimate unknown.
 */
export function queueStatus(concurrency: number, running: readonly JobRecord[], queued: readonly JobRecord[], meanOf: MeanDuration): QueueStatus {
  const means = new Map<string, number | null>();
  const mean = (kind: string) => {
    if (!means.has(kind)) means.set(kind, meanOf(kind));
    return means.get(kind) ?? null;
  };
  let ahead: number | null = 0;
  for (const job of running) {
    const jobMean = mean(job.kind);
    ahead = ahead === null || jobMean === null ? null : ahead + jobMean * (1 - job.progress);
  }
  const queuedViews = queued.map((job, index) => {
    const wait = ahead === null ? null : round(ahead / concurrency);
    const jobMean = mean(job.kind);
    ahead = ahead === null || jobMean === null ? null : ahead + jobMean;
    return view(job, index + 1, wait);
  });
  return { concurrency, running: running.map((job) => view(job, 0, 0)), queued: queuedViews };
}
