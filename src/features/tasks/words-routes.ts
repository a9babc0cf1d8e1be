import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';
import type { TaskService } from './service.js';

const TaskParams = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Like the task's other reads: tts:generate, counted against the `task_reads` budget. */
const config = { scope: 'tts:generate', budget: 'task_reads' } as const;

export const taskWordRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  app.get('/api/tasks/:task_id/words', {
    config,
    schema: {
      operationId: 'getTaskWords',
      tags: ['Text to speech'],
      summary: 'The word times of a task’s audio: from the engines, or estimated from the audio where an engine gives none',
      description:
        'A generation’s words, or a long-form task’s words in its last merge (`relative_to: task`). Before a long-form task is merged, each chunk’s words in seconds of the chunk’s own audio (`relative_to: chunk`). 409 `timings_unavailable` for a task not finished or spoken before word times were kept.',
      params: TaskParams,
      response: withErrors({ 200: Type.Ref('TaskWords') }, { 404: ['task_not_found'], 409: ['timings_unavailable'] }),
    },
    handler: async (request) => tasks.wordsOf(tasks.owned(request.params.task_id, callerOf(request).keyId)),
  });
};
