import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '../../platform/http/responses.js';
import { openAiResponses } from './errors.js';
import { ModelListSchema, ModelParamsSchema, ModelSchema, VoiceListSchema, VoicesQuerySchema } from './model-schemas.js';
import type { OpenAiService } from './service.js';

export const modelRoutes: FastifyPluginAsyncTypebox<{ openai: OpenAiService }> = async (app, { openai }) => {
  app.get('/v1/models', {
    config: { scope: 'voices:read' },
    schema: {
      operationId: 'openAiListModels',
      tags: ['System'],
      summary: 'OpenAI-compatible: the model ids that resolve here (models.list)',
      response: openAiResponses(withErrors({ 200: ModelListSchema })),
    },
    handler: async () => ({ object: 'list' as const, data: await openai.models() }),
  });

  app.get('/v1/models/:id', {
    config: { scope: 'voices:read' },
    schema: {
      operationId: 'openAiGetModel',
      tags: ['System'],
      summary: 'OpenAI-compatible: one model id (models.retrieve)',
      params: ModelParamsSchema,
      response: openAiResponses(withErrors({ 200: ModelSchema }, { 404: ['model_not_found'] })),
    },
    handler: async (request) => openai.model(request.params.id),
  });

  app.get('/v1/audio/voices', {
    config: { scope: 'voices:read' },
    schema: {
      operationId: 'openAiListVoices',
      tags: ['Voices'],
      summary: 'The voices `voice` takes: OpenAI’s names with the voice each speaks with, then every Timbre voice',
      querystring: VoicesQuerySchema,
      response: openAiResponses(withErrors({ 200: VoiceListSchema }, { 404: ['model_not_found'] })),
    },
    handler: async (request) => ({ voices: await openai.voices(request.query.model ?? 'tts-1') }),
  });
};
