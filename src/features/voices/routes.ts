import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../platform/config.js';
import { DescriptionSchema, TagsSchema, VoiceNameSchema } from './archive-format.js';
import { DisplayNameSchema } from '../../platform/text/display-name.js';
import { publicCategory, publicVoice, type VoiceService } from './service.js';
import { TimestampSchema, withErrors } from '../../platform/http/schemas.js';
import { voiceArchiveRoutes } from './archive-routes.js';

const VoiceTypeSchema = Type.Union([Type.Literal('preset'), Type.Literal('clone'), Type.Literal('design')]);
const LanguageSchema = Type.String({ description: 'BCP-47 tag, e.g. en-US' });

const VoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'Preset voices: the engine voice id, e.g. pico:en-US. Clones and designs: voice_…' }),
    name: Type.String(),
    type: VoiceTypeSchema,
    engine: Type.String(),
    language: LanguageSchema,
    languages: Type.Array(LanguageSchema, { description: 'Every language the voice can speak' }),
    gender: Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    license: Type.Union([Type.String(), Type.Null()], { description: 'License of the voice data' }),
    sample_rate: Type.Union([Type.Integer(), Type.Null()], { description: 'Native output rate in Hz' }),
    category: Type.Union([Type.String(), Type.Null()], { description: 'Category name' }),
    category_id: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    favorite: Type.Boolean(),
    available: Type.Boolean({ description: 'False when the engine of a preset is no longer installed; favorites and tags are kept' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    preview_url: Type.Union([Type.String(), Type.Null()]),
    samples: Type.Array(
      Type.Object({
        id: Type.String(),
        duration: Type.Number({ description: 'seconds' }),
        sample_rate: Type.Integer(),
        transcript: Type.Union([Type.String(), Type.Null()]),
      }),
      { description: 'Reference recordings of a clone; empty for presets' },
    ),
    settings: Type.Record(Type.String(), Type.Unknown(), {
      description: 'How a clone or design was made and speaks (method, fitted parameters, target analysis, design attributes); empty for presets',
    }),
    clone_method: Type.Union([Type.Literal('zero_shot'), Type.Literal('voice_search'), Type.Literal('timbre_match'), Type.Null()], {
      description: 'Clones: how the clone speaks',
    }),
    similarity: Type.Union([Type.Number(), Type.Null()], {
      description: 'Clones: similarity of the clone speaking a test sentence to the target samples, 0..1',
    }),
    baseline_similarity: Type.Union([Type.Number(), Type.Null()], { description: 'Clones: the same measure for the nearest unconverted preset' }),
    similarity_measure: Type.Union([Type.String(), Type.Null()], { description: 'acoustic-voiceprint, or speaker-embedding when installed' }),
    warnings: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true }), {
      description: 'Clones: soft problems of the samples',
    }),
  },
  { $id: 'Voice' },
);

const CategorySchema = Type.Object(
  { id: Type.String(), name: Type.String(), created_at: TimestampSchema, voice_count: Type.Integer({ minimum: 0 }) },
  { $id: 'Category' },
);

const DEFAULT_LIMIT = 50;

const ListQuerySchema = Type.Object(
  {
    type: Type.Optional(VoiceTypeSchema),
    language: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$', description: 'en matches en, en-US, en-GB…; matched against every language of a voice' }),
    ),
    favorite: Type.Optional(Type.Boolean()),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Category id or name' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Searches name, description and tags, case-insensitively' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: DEFAULT_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

const UpdateBodySchema = Type.Object(
  {
    name: Type.Optional(VoiceNameSchema),
    description: Type.Optional(DescriptionSchema),
    category: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 60 }), Type.Null()], { description: 'Name of an existing category; null removes it' }),
    ),
    tags: Type.Optional(TagsSchema),
    favorite: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

const VoiceParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const CategoryParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const CreateCategorySchema = Type.Object({ name: DisplayNameSchema(60) }, { additionalProperties: false });

const read = { scope: 'voices:read' } as const;
const write = { scope: 'voices:write' } as const;
const tags = ['Voices'];
const notFound = { 404: Type.Ref('ErrorEnvelope') };

export const voiceRoutes: FastifyPluginAsyncTypebox<{ voices: VoiceService; config: Config }> = async (app, { voices, config }) => {
  app.addSchema(VoiceSchema);
  app.addSchema(CategorySchema);

  app.get('/api/voices', {
    config: read,
    schema: {
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
    schema: { tags, summary: 'One voice', params: VoiceParamsSchema, response: withErrors({ 200: Type.Ref('Voice'), ...notFound }) },
    handler: async (request) => publicVoice(await voices.get(request.params.id)),
  });

  app.put('/api/voices/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Change the metadata of a voice',
      description: 'Presets accept only favorite, category and tags (others: 403 voice_read_only). An unknown category name gives 400 category_not_found.',
      params: VoiceParamsSchema,
      body: UpdateBodySchema,
      response: withErrors({ 200: Type.Ref('Voice'), ...notFound }),
    },
    handler: async (request) => publicVoice(await voices.update(request.params.id, request.body)),
  });

  app.delete('/api/voices/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Delete a clone or design and its files',
      description: 'Presets cannot be deleted: 403 voice_read_only.',
      params: VoiceParamsSchema,
      response: withErrors({ 204: Type.Null(), ...notFound }),
    },
    handler: async (request, reply) => {
      await voices.delete(request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/favorites', {
    config: read,
    schema: { tags, summary: 'Favorite voices', response: withErrors({ 200: Type.Object({ voices: Type.Array(Type.Ref('Voice')) }) }) },
    handler: async () => ({ voices: (await voices.favorites()).map(publicVoice) }),
  });

  app.post('/api/favorites/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Toggle whether a voice is a favorite; answers the new state',
      params: VoiceParamsSchema,
      response: withErrors({ 200: Type.Object({ voice_id: Type.String(), favorite: Type.Boolean() }), ...notFound }),
    },
    handler: async (request) => voices.toggleFavorite(request.params.id),
  });

  app.get('/api/categories', {
    config: read,
    schema: { tags, summary: 'Voice categories', response: withErrors({ 200: Type.Object({ categories: Type.Array(Type.Ref('Category')) }) }) },
    handler: async () => ({ categories: voices.listCategories().map(publicCategory) }),
  });

  app.post('/api/categories', {
    config: write,
    schema: {
      tags,
      summary: 'Create a category; names are unique regardless of case (409 category_exists)',
      body: CreateCategorySchema,
      response: withErrors({ 201: Type.Ref('Category'), 409: Type.Ref('ErrorEnvelope') }),
    },
    handler: async (request, reply) => reply.code(201).send(publicCategory(voices.createCategory(request.body.name.trim()))),
  });

  app.delete('/api/categories/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Delete a category; its voices stay, without a category',
      params: CategoryParamsSchema,
      response: withErrors({ 204: Type.Null(), ...notFound }),
    },
    handler: async (request, reply) => {
      voices.deleteCategory(request.params.id);
      return reply.code(204).send(null);
    },
  });

  await app.register(voiceArchiveRoutes, { voices, config });
};
