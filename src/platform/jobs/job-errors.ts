import { ApiError } from '../errors.js';
import { engineErrorStatus } from '../engines/error-status.js';
import type { JobQueue } from './queue.js';
import type { JobRecord } from './types.js';

/** The error a client gets for a job that did not complete, with the job's own code. */
export function jobErrorToApiError(job: JobRecord): ApiError {
  if (job.state === 'cancelled') return new ApiError(409, 'cancelled', 'The job was cancelled', { job_id: job.id, task_id: job.taskId });
  const error = job.error ?? { code: 'internal_error', message: 'The job failed', details: {} };
  const status = error.code === 'interrupted' ? 503 : (error.status ?? engineErrorStatus(error.code));
  return new ApiError(status, error.code, error.message, { ...error.details, job_id: job.id, task_id: job.taskId });
}

/** Waits for a job and answers its record when it completed; otherwise throws its error as the API gives it. */
export async function completedJob(queue: Pick<JobQueue, 'wait'>, jobId: string): Promise<JobRecord> {
  const done = await queue.wait(jobId);
  if (done.state !== 'completed') throw jobErrorToApiError(done);
  return done;
}
