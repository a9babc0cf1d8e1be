import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withErrors } from '../../platform/http/responses.js';
import { cancelJobs } from '../../platform/jobs/job-cancel.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { callerOf } from '../access/index.js';
import type { TaskRemoval } from './removal.js';
import type { TaskService } from './service.js';

export const taskDeleteRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService; removal: TaskRemoval; queue: JobQueue }> = async (
  app,
  { tasks, removal, queue },
) => {
  app.delete('/api/tasks/:task_id', {
    config: { scope: 'tts:generate' },
    schema: {
      operationId: 'deleteTask',
      tags: ['Text to speech'],
      summary: 'Delete a task with its chunks, takes, timeline and renders, and their files (its running jobs are cancelled first)',
      params: Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: withErrors({ 204: Type.Null() }, { 404: ['task_not_found'] }),
    },
    handler: async (request, reply) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      await cancelJobs(
        queue,
        queue.active((job) => job.taskId === task.id),
      );
      await removal.remove([task.id]);
      return reply.code(204).send(null);
    },
  });
};
