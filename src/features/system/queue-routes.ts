import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { cancelJobs, cancelOwnJob } from '../../platform/jobs/job-cancel.js';
import { callerOf } from '../access/index.js';
import { CancelledSchema, Nullable, presentCancelled } from '../../platform/http/schemas.js';
import { CANCEL_ERRORS, withErrors } from '../../platform/http/responses.js';
import type { WorkersView } from './workers-schema.js';

export const JobViewSchema = Type.Object(
  {
    job_id: Type.String(),
    kind: Type.String(),
    task_id: Nullable(Type.String()),
    owner_key_id: Nullable(Type.String()),
    state: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    stage: Nullable(Type.String()),
    position: Type.Integer({ description: '0 while running; 1 is next in line (counting every key’s jobs)' }),
    created_at: Type.String(),
    started_at: Nullable(Type.String()),
    estimated_wait_seconds: Nullable(Type.Number({ description: 'From recent jobs of the same kind; null without history' })),
  },
  { $id: 'JobView' },
);

const QueueStatusSchema = Type.Object({
  concurrency: Type.Integer(),
  running: Type.Array(Type.Ref('JobView'), { description: 'The calling key’s running jobs' }),
  queued: Type.Array(Type.Ref('JobView'), { description: 'The calling key’s queued jobs, in order' }),
  others: Type.Object(
    { running: Type.Integer({ minimum: 0 }), queued: Type.Integer({ minimum: 0 }) },
    { description: 'Jobs of other keys (and of the service itself), counted only' },
  ),
  workers: Type.Optional(Type.Ref('Workers')),
});

const CancelBody = Type.Object(
  {
    job_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Every queued or running job of this task' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'job_id or task_id' },
);

const config = { scope: 'system:read' } as const;
const tags = ['Queue'];

export interface QueueRoutesOptions {
  queue: JobQueue;
  /** With TIMBRE_QUEUE_URL: the workers the engine calls go to. */
  workers?: () => Promise<WorkersView>;
}

export const queueRoutes: FastifyPluginAsyncTypebox<QueueRoutesOptions> = async (app, { queue, workers }) => {
  app.get('/api/queue/status', {
    config,
    schema: {
      operationId: 'getQueueStatus',
      tags,
      summary: 'The calling key’s running and queued jobs, with positions and estimated wait; other keys’ jobs as counts; the workers',
      response: withErrors({ 200: QueueStatusSchema }),
    },
    handler: async (request) => {
      const keyId = callerOf(request).keyId;
      const { concurrency, running, queued } = queue.status();
      const mine = (job: { owner_key_id: string | null }) => job.owner_key_id === keyId;
      return {
        concurrency,
        running: running.filter(mine),
        queued: queued.filter(mine),
        others: { running: running.filter((job) => !mine(job)).length, queued: queued.filter((job) => !mine(job)).length },
        ...(workers ? { workers: await workers() } : {}),
      };
    },
  });

  app.post('/api/job/cancel', {
    config,
    schema: {
      operationId: 'cancelJob',
      tags,
      summary: 'Cancel a queued or running job of the calling key, or every one of a task; answers once they have stopped',
      body: CancelBody,
      response: withErrors({ 200: CancelledSchema }, CANCEL_ERRORS),
    },
    handler: async (request) => {
      const keyId = callerOf(request).keyId;
      const { job_id: jobId, task_id: taskId } = request.body;
      if (jobId) return presentCancelled(await cancelOwnJob(queue, keyId, jobId));
      // Jobs of other keys are not there for the caller: a key cannot stop another app's work.
      const jobs = queue.active((job) => job.taskId === taskId && job.ownerKeyId === keyId);
      if (jobs.length === 0) throw new ApiError(404, 'job_not_found', `No queued or running job of task ${taskId}`, { task_id: taskId ?? null });
      return presentCancelled(await cancelJobs(queue, jobs));
    },
  });
};
