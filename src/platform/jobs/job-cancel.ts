import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../errors.js';
import type { JobQueue } from './queue.js';
import { FINISHED_STATES, type JobRecord, type JobState } from './types.js';

/**
 * How long a cancel answer waits for a running job to stop. The engine host kills an engine that
 * has not stopped 2 s after it was asked to, so a job normally stops well within this.
 */
export const CANCEL_SETTLE_MS = 5000;

/** A job as a cancel answer shows it: its state after the cancel, `cancelling` if it has not stopped yet. */
export interface CancelledJob {
  jobId: string;
  taskId: string | null;
  kind: string;
  state: JobState | 'cancelling';
}

/** Cancels each job and answers once each has stopped (or the wait ran out). */
export async function cancelJobs(queue: JobQueue, jobs: readonly JobRecord[]): Promise<CancelledJob[]> {
  return Promise.all(jobs.map((job) => cancelAndSettle(queue, job.id)));
}

async function cancelAndSettle(queue: JobQueue, jobId: string): Promise<CancelledJob> {
  const asked = queue.cancel(jobId);
  const settled = FINISHED_STATES.has(asked.state) ? asked : await Promise.race([queue.wait(jobId), sleep(CANCEL_SETTLE_MS, undefined, { ref: false })]);
  const record = settled ?? asked;
  return { jobId: record.id, taskId: record.taskId, kind: record.kind, state: settled ? record.state : 'cancelling' };
}

/**
 * Cancels one queued or running job of the caller; a job of another key (or of a kind `kinds` does
 * not name) does not exist for the caller.
 */
export function cancelOwnJob(queue: JobQueue, ownerKeyId: string, jobId: string, kinds?: readonly string[], what = ''): Promise<CancelledJob[]> {
  const job = queue.get(jobId);
  if (!job || job.ownerKeyId !== ownerKeyId || (kinds && !kinds.includes(job.kind))) {
    throw new ApiError(404, 'job_not_found', `No ${what ? `${what} ` : ''}job ${jobId}`, { job_id: jobId });
  }
  if (FINISHED_STATES.has(job.state)) throw new ApiError(409, 'job_not_cancellable', `Job ${jobId} is ${job.state}`, { job_id: jobId, state: job.state });
  return cancelJobs(queue, [job]);
}

/** Cancels one job of the caller (by id) or every queued and running job of the caller of these kinds. */
export function cancelOwnJobs(queue: JobQueue, kinds: readonly string[], ownerKeyId: string, jobId: string | undefined, what: string): Promise<CancelledJob[]> {
  if (jobId) return cancelOwnJob(queue, ownerKeyId, jobId, kinds, what);
  const active = queue.active((job) => job.ownerKeyId === ownerKeyId && kinds.includes(job.kind));
  if (active.length === 0) throw new ApiError(404, `no_active_${what.replace(/ /g, '_')}`, `This key has no ${what} queued or running`);
  return cancelJobs(queue, active);
}
