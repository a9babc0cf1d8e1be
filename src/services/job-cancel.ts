import { ApiError } from '../errors.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobRecord } from '../jobs/types.js';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * Cancels one job of the caller (by id) or every queued and running job of the caller of these
 * kinds. Jobs of other keys, and of other kinds, do not exist for the caller.
 */
export function cancelOwnJobs(queue: JobQueue, kinds: readonly string[], ownerKeyId: string, jobId: string | undefined, what: string): JobRecord[] {
  if (jobId) {
    const job = queue.get(jobId);
    if (!job || job.ownerKeyId !== ownerKeyId || !kinds.includes(job.kind)) throw new ApiError(404, 'job_not_found', `No ${what} job ${jobId}`, { job_id: jobId });
    if (FINISHED.has(job.state)) throw new ApiError(409, 'job_not_cancellable', `Job ${jobId} is ${job.state}`, { job_id: jobId, state: job.state });
    return [queue.cancel(jobId)];
  }
  const queued = queue
    .status()
    .queued.filter((view) => view.owner_key_id === ownerKeyId && kinds.includes(view.kind))
    .map((view) => queue.get(view.job_id)!);
  const active = [...queue.runningFor(ownerKeyId, [...kinds]), ...queued];
  if (active.length === 0) throw new ApiError(404, `no_active_${what.replace(/ /g, '_')}`, `This key has no ${what} queued or running`);
  return active.map((job) => queue.cancel(job.id));
}
