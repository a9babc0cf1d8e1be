import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { callerOf } from '../auth.js';
import { withErrors } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const JobViewSchema = Type.Object(
  {
    job_id: Type.String(),
    kind: Type.String(),
    task_id: Nullable(Type.String()),
    owner_key_id: Nullable(Type.String()),
    state: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    stage: Nullable(Type.String()),
    position: Type.Integer({ description: '0 while running; 1 is next in line' }),
    created_at: Type.String(),
    started_at: Nullable(Type.String()),
    estimated_wait_seconds: Nullable(Type.Number({ description: 'From recent jobs of the same kind; null without history' })),
  },
  { $id: 'JobView' },
);

const config = { scope: 'system:read' } as const;
const tags = ['Queue'];

export const queueRoutes: FastifyPluginAsyncTypebox<{ queue: JobQueue }> = async (app, { queue }) => {
  app.addSchema(JobViewSchema);

  app.get('/api/queue/status', {
    config,
    schema: {
      tags,
      summary: 'Running and queued jobs of the compute queue, with positions and estimated wait',
      response: withErrors({ 200: Type.Object({ concurrency: Type.Integer(), running: Type.Array(Type.Ref('JobView')), queued: Type.Array(Type.Ref('JobView')) }) }),
    },
    handler: async () => queue.status(),
  });

  app.post('/api/job/cancel', {
    config,
    schema: {
      tags,
      summary: 'Cancel a queued or running job of the calling key',
      body: Type.Object({ job_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
      response: withErrors({ 200: Type.Object({ job_id: Type.String(), state: Type.String(), task_id: Nullable(Type.String()) }), 404: Type.Ref('ErrorEnvelope'), 409: Type.Ref('ErrorEnvelope') }),
    },
    handler: async (request) => {
      const job = queue.get(request.body.job_id);
      // Jobs of other keys are not there for the caller: a key cannot stop another app's work.
      if (!job || job.ownerKeyId !== callerOf(request).keyId) {
        throw new ApiError(404, 'job_not_found', `No job ${request.body.job_id}`, { job_id: request.body.job_id });
      }
      const cancelled = queue.cancel(job.id);
      return { job_id: cancelled.id, state: cancelled.state, task_id: cancelled.taskId };
    },
  });
};
