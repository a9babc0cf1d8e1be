import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/index.js';
import { withErrors } from '../../platform/http/responses.js';
import type { ModelService } from './service.js';
import { InstallAcceptedSchema, ModelIdParamsSchema, ModelListSchema, ModelRemovedSchema } from './schemas.js';

const tags = ['System'];
const manage = { scope: 'models:manage' } as const;
const NOT_FOUND = { 404: ['model_not_found'] };

export const modelRoutes: FastifyPluginAsyncTypebox<{ models: ModelService }> = async (app, { models }) => {
  app.get('/api/models', {
    config: { scope: 'system:read' },
    schema: {
      operationId: 'listModels',
      tags,
      summary: 'Every neural model of the catalog: whether it is installed here, and an install under way',
      response: withErrors({ 200: ModelListSchema }),
    },
    handler: async () => ({ models: await models.list() }),
  });

  app.post('/api/models/:model_id/install', {
    config: manage,
    schema: {
      operationId: 'installModel',
      tags,
      summary: 'Download, verify and install a catalog model as a `model-install` job',
      description:
        'Answers 202 with the job at once: progress (`downloaded_bytes`, `total_bytes`) arrives on /ws, `POST /api/job/cancel` stops it and ' +
        'leaves nothing behind. Asking again while the model is being installed answers the same job. Downloads come only from the ' +
        'catalog’s URLs and are checked against its pins, as `timbre models install` does. The job holds a queue slot while it runs.',
      params: ModelIdParamsSchema,
      response: withErrors({ 202: InstallAcceptedSchema }, NOT_FOUND, { 409: ['model_installed'], 503: ['queue_full'] }),
    },
    handler: async (request, reply) => {
      const job = await models.install(request.params.model_id, callerOf(request).keyId);
      return reply.code(202).send({ job_id: job.id, status: job.state, model_id: request.params.model_id });
    },
  });

  app.delete('/api/models/:model_id', {
    config: manage,
    schema: {
      operationId: 'removeModel',
      tags,
      summary: 'Remove an installed model’s files; its voices become unavailable',
      params: ModelIdParamsSchema,
      response: withErrors({ 200: ModelRemovedSchema }, NOT_FOUND, { 409: ['model_not_installed', 'model_install_running'] }),
    },
    handler: async (request) => {
      await models.remove(request.params.model_id);
      return { model_id: request.params.model_id, removed: true as const };
    },
  });
};
