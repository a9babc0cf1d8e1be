import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DisplayNameSchema } from '../../platform/text/display-name.js';
import { publicVoice, type VoiceService } from './service.js';
import { publicCategory } from './categories.js';
import { changesOf, VoiceUpdateBodySchema } from './voice-echo.js';
import { VoiceTypeSchema } from './voice-schema.js';
import { withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';
import { voiceArchiveRoutes } from './archive-routes.js';

const DEFAULT_LIMIT = 50;

const ListQuerySchema = Type.Object(
  {
    type: Type.Optional(VoiceTypeSchema),
    language: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$', description: 'en matches en, en-US, en-GB…; matched against every language of a voice' }),
    ),
    favorite: Type.Optional(Type.Boolean()),
    category: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Category id or name, a user’s or a built-in one (library:neural or Natural (neural), …)' }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Searches name, description, tags (the user’s and library_tags), languages and categories (the user’s and the built-in one), case-insensitively',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('quality'), Type.Literal('name')], {
        default: 'quality',
        description:
          '`quality`: clearest first: voices measured intelligible (library tag `clear`), then by engine (kokoro, kitten, vits, rhvoice, pico, flite, festival, openjtalk, espeak, then the rest), then a clone’s or design’s measured intelligibility, then by name; `name`: by name',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: DEFAULT_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

const VoiceParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const CategoryParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const CreateCategorySchema = Type.Object({ name: DisplayNameSchema(60) }, { additionalProperties: false });

const read = { scope: 'voices:read' } as const;
const write = { scope: 'voices:write' } as const;
const tags = ['Voices'];
const NOT_FOUND = { 404: ['voice_not_found'] };

export interface VoiceRouteOptions {
  voices: VoiceService;
  dataDir: string;
  maxArchiveBytes: number;
  /** Checks default pronunciation dictionaries as a key sets them (each visible to it, not too many); answers them as kept. */
  checkPronunciations: (ids: readonly string[], keyId: string) => string[];
}

export const voiceRoutes: FastifyPluginAsyncTypebox<VoiceRouteOptions> = async (app, { voices, dataDir, maxArchiveBytes, checkPronunciations }) => {
  app.get('/api/voices', {
    config: read,
    schema: {
      operationId: 'listVoices',
      tags,
      summary: 'List voices: presets of every installed engine, clones and designs',
      querystring: ListQuerySchema,
      response: withErrors({
        200: Type.Object({ voices: Type.Array(Type.Ref('Voice')), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
      }),
    },
    handler: async (request) => {
      const { limit = DEFAULT_LIMIT, offset = 0 } = request.query;
      const { voices: page, total } = await voices.list({ ...request.query, limit, offset });
      return { voices: page.map(publicVoice), total, limit, offset };
    },
  });

  app.get('/api/voices/:id', {
    config: read,
    schema: { operationId: 'getVoice', tags, summary: 'One voice', params: VoiceParamsSchema, response: withErrors({ 200: Type.Ref('Voice') }, NOT_FOUND) },
    handler: async (request) => publicVoice(await voices.get(request.params.id)),
  });

  app.put('/api/voices/:id', {
    config: write,
    schema: {
      operationId: 'updateVoice',
      tags,
      summary: 'Change the metadata of a voice',
      description:
        'Takes the voice as GET shows it, or only the fields to change: name, description, category (a name; null removes it), tags, favorite, ' +
        'pronunciation_ids (dictionaries the caller can see, applied by default to every generation with the voice). ' +
        'Other fields are read-only: accepted when they match the stored voice, 400 read_only_mismatch otherwise. ' +
        'A preset keeps its name and description (changing them: 403 voice_read_only). An unknown category name gives 400 category_not_found.',
      params: VoiceParamsSchema,
      body: VoiceUpdateBodySchema,
      response: withErrors({ 200: Type.Ref('Voice') }, NOT_FOUND, {
        400: ['read_only_mismatch', 'category_not_found', 'category_built_in', 'too_many_dictionaries'],
        403: ['voice_read_only'],
        404: ['pronunciation_not_found'],
      }),
    },
    handler: async (request) => {
      const current = publicVoice(await voices.get(request.params.id));
      const changes = changesOf(request.body, current, (name) => voices.findCategory(name)?.id);
      if (changes.pronunciationIds) changes.pronunciationIds = checkPronunciations(changes.pronunciationIds, callerOf(request).keyId);
      return publicVoice(await voices.update(request.params.id, changes));
    },
  });

  app.delete('/api/voices/:id', {
    config: write,
    schema: {
      operationId: 'deleteVoice',
      tags,
      summary: 'Delete a clone or design and its files',
      description: 'Presets cannot be deleted: 403 voice_read_only.',
      params: VoiceParamsSchema,
      response: withErrors({ 204: Type.Null() }, NOT_FOUND, { 403: ['voice_read_only'] }),
    },
    handler: async (request, reply) => {
      await voices.delete(request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/favorites', {
    config: read,
    schema: {
      operationId: 'listFavoriteVoices',
      tags,
      summary: 'Favorite voices',
      response: withErrors({ 200: Type.Object({ voices: Type.Array(Type.Ref('Voice')) }) }),
    },
    handler: async () => ({ voices: (await voices.favorites()).map(publicVoice) }),
  });

  app.post('/api/favorites/:id', {
    config: write,
    schema: {
      operationId: 'toggleFavoriteVoice',
      tags,
      summary: 'Toggle whether a voice is a favorite; answers the new state',
      params: VoiceParamsSchema,
      response: withErrors({ 200: Type.Object({ voice_id: Type.String(), favorite: Type.Boolean() }) }, NOT_FOUND),
    },
    handler: async (request) => voices.toggleFavorite(request.params.id),
  });

  app.get('/api/categories', {
    config: read,
    schema: {
      operationId: 'listCategories',
      tags,
      summary: 'Voice categories: the built-in ones that hold a voice (Natural (neural), Classic, Robotic, Cloned, Designed), then the user’s',
      response: withErrors({ 200: Type.Object({ categories: Type.Array(Type.Ref('Category')) }) }),
    },
    handler: async () => ({ categories: voices.listCategories().map(publicCategory) }),
  });

  app.post('/api/categories', {
    config: write,
    schema: {
      operationId: 'createCategory',
      tags,
      summary: 'Create a category; names are unique regardless of case (409 category_exists)',
      body: CreateCategorySchema,
      response: withErrors({ 201: Type.Ref('Category') }, { 409: ['category_exists'] }),
    },
    handler: async (request, reply) => reply.code(201).send(publicCategory(voices.createCategory(request.body.name.trim()))),
  });

  app.delete('/api/categories/:id', {
    config: write,
    schema: {
      operationId: 'deleteCategory',
      tags,
      summary: 'Delete a category; its voices stay, without a category (a built-in one: 403 category_built_in)',
      params: CategoryParamsSchema,
      response: withErrors({ 204: Type.Null() }, { 403: ['category_built_in'], 404: ['category_not_found'] }),
    },
    handler: async (request, reply) => {
      voices.deleteCategory(request.params.id);
      return reply.code(204).send(null);
    },
  });

  await app.register(voiceArchiveRoutes, { voices, dataDir, maxArchiveBytes });
};
