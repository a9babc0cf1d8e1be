import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, pageOf } from '../../platform/http/cursor.js';
import { Nullable } from '../../platform/http/schemas.js';
import { withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';
import type { TaskRepository, TaskStatus, TaskKind } from './repository.js';
import type { TaskSummaries } from './summary.js';

const TaskListQuery = Type.Object(
  {
    kind: Type.Optional(Type.Unsafe<TaskKind>({ type: 'string', enum: ['generation', 'long-form'] })),
    status: Type.Optional(Type.Unsafe<TaskStatus>({ type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] })),
    project_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only tasks filed in this project; `none`: tasks in no project' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`next_cursor` of the previous page' })),
  },
  { additionalProperties: false },
);

const TaskListSchema = Type.Object({
  tasks: Type.Array(Type.Ref('TaskSummary')),
  total: Type.Integer({ description: 'How many tasks match the filters, on every page' }),
  next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const taskListRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskRepository; summaries: TaskSummaries }> = async (app, { tasks, summaries }) => {
  app.get('/api/tasks', {
    config: { scope: 'tts:generate', budget: 'task_reads' },
    schema: {
      operationId: 'listTasks',
      tags: ['Text to speech'],
      summary: 'The caller’s tasks, newest first, a page at a time',
      querystring: TaskListQuery,
      response: withErrors({ 200: TaskListSchema }, { 400: ['invalid_cursor'] }),
    },
    handler: async (request) => {
      const { kind, status, project_id: project, limit = 20, cursor } = request.query;
      const filter = { ownerKeyId: callerOf(request).keyId, kind, status, projectId: project === 'none' ? null : project };
      const rows = tasks.list({ ...filter, before: cursor === undefined ? undefined : decodeCursor(cursor) }, limit + 1);
      const page = pageOf(rows, limit, (task) => ({ at: task.createdAt, id: task.id }));
      return { tasks: page.rows.map((task) => summaries.present(task)), total: tasks.count(filter), next_cursor: page.nextCursor };
    },
  });
};
