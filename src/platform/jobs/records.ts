import { isOpaqueEngineFailure, publicEngineError } from '../engines/types.js';
import { ApiError, EngineError } from '../errors.js';
import type { Audience, EventBus, JobEvent, JobEventData, JobEventType } from '../events.js';
import { insufficientStorage, isStorageFull } from '../storage-full.js';
import type { JobError, JobRecord } from './types.js';
import { newId } from '../util/ids.js';

export const now = () => new Date().toISOString();

/** A fresh `queued` record; 12 random bytes make ids unguessable as well as unique. */
export function newJobRecord(input: Pick<JobRecord, 'kind' | 'ownerKeyId' | 'payload'> & { taskId?: string }): JobRecord {
  return {
    id: newId('job', 12),
    kind: input.kind,
    ownerKeyId: input.ownerKeyId,
    taskId: input.taskId ?? null,
    state: 'queued',
    progress: 0,
    stage: null,
    payload: input.payload,
    result: null,
    error: null,
    createdAt: now(),
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * ApiError and EngineError keep their code; a full disk (SQLite or the file system) is
 * `insufficient_storage` (507); anything else is a bug, reported as internal_error.
 */
export function toJobError(error: unknown): JobError {
  if (error instanceof ApiError) return { code: error.code, message: error.message, details: error.details, status: error.statusCode };
  if (isStorageFull(error)) return toJobError(insufficientStorage());
  if (error instanceof EngineError) return publicEngineError(error);
  // What a bug said stays in the server log (see JobQueue): it may name files or internals.
  return { code: 'internal_error', message: 'The job failed because of an error in the service', details: {} };
}

export function jobNotFound(jobId: string): ApiError {
  return new ApiError(404, 'job_not_found', `No job ${jobId}`, { job_id: jobId });
}

/**
 * Publishes a job event to the job's owner, or to everyone for a job without one. The identifying
 * fields go last so a runner's result or progress extras cannot overwrite them.
 */
export function publishJobEvent<T extends JobEventType>(events: EventBus, record: JobRecord, type: T, data: JobEventData[T]): void {
  const audience: Audience = record.ownerKeyId === null ? { everyone: true } : { keyId: record.ownerKeyId };
  const event: JobEvent<T> = { type, data: { ...data, job_id: record.id, kind: record.kind, task_id: record.taskId } };
  events.publish({ ...event, audience });
}

/** Whether a job's failure hides what caused it from clients, so the server must log the cause. */
export function needsLogging(error: unknown): boolean {
  if (error instanceof ApiError || isStorageFull(error)) return false;
  return !(error instanceof EngineError) || isOpaqueEngineFailure(error);
}
