import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DisplayNameSchema } from '../../platform/text/display-name.js';
import { publicView as present, type KeyService } from './service.js';
import { callerOf } from './auth.js';
import { NullableTimestampSchema, TimestampSchema } from '../../platform/http/schemas.js';
import { withErrors } from '../../platform/http/responses.js';
import { ScopeSchema, RateLimitsSchema, StorageQuotaSchema } from './schemas.js';

export const ApiKeySchema = Type.Object(
  {
    key_id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
    scopes: Type.Array(ScopeSchema),
    rate_limits: RateLimitsSchema,
    created_at: TimestampSchema,
    last_used_at: NullableTimestampSchema,
    revoked_at: NullableTimestampSchema,
    created_by: Type.Union([Type.String(), Type.Null()], {
      description: 'The key that created this one; it shares that key’s budget (null: made by the owner)',
    }),
    storage_quota_mb: StorageQuotaSchema,
  },
  { $id: 'ApiKey' },
);

const CreatedApiKeySchema = Type.Object({
  ...ApiKeySchema.properties,
  key: Type.String({ description: 'The full key. It is shown only in this response and cannot be read again.' }),
});

const KeyNameSchema = DisplayNameSchema(100);

const CreateBodySchema = Type.Object(
  {
    name: KeyNameSchema,
    scopes: Type.Optional(Type.Array(ScopeSchema, { minItems: 1, uniqueItems: true, description: 'Defaults to every scope of the calling key' })),
    rate_limits: Type.Optional(RateLimitsSchema),
    storage_quota_mb: Type.Optional(StorageQuotaSchema),
  },
  { additionalProperties: false },
);

const UpdateBodySchema = Type.Object(
  { name: Type.Optional(KeyNameSchema), rate_limits: Type.Optional(RateLimitsSchema), storage_quota_mb: Type.Optional(StorageQuotaSchema) },
  { additionalProperties: false, minProperties: 1 },
);

const KeyParamsSchema = Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }) });

const config = { scope: 'system:read' } as const;
/** A key outside the caller's line (itself and the keys below it) is answered as missing: other lines' ids stay unknown. */
const NOT_IN_LINE = { 404: ['key_not_found'] };
const tags = ['API keys'];

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ keys: KeyService }> = async (app, { keys }) => {
  app.get('/api/api-keys', {
    config,
    schema: {
      operationId: 'listApiKeys',
      tags,
      summary: 'List the calling key and the keys below it (never their secrets)',
      description: 'A key sees its own line only: itself, the keys it created, and theirs. Keys of other lines, its creator included, are not listed.',
      response: withErrors({ 200: Type.Object({ keys: Type.Array(Type.Ref('ApiKey')) }) }),
    },
    handler: async (request) => ({ keys: keys.list(callerOf(request)).map(present) }),
  });

  app.post('/api/api-keys', {
    config,
    schema: {
      operationId: 'createApiKey',
      tags,
      summary: 'Create an API key',
      description: 'The new key can hold only scopes, and limits up to those, that the calling key holds itself.',
      body: CreateBodySchema,
      response: withErrors({ 201: CreatedApiKeySchema }, { 403: ['scope_escalation', 'rate_limit_escalation'] }),
    },
    handler: async (request, reply) => {
      const { name, scopes, rate_limits: rateLimits, storage_quota_mb: storageQuotaMb } = request.body;
      const created = keys.create({ name, scopes, rateLimits, storageQuotaMb }, callerOf(request));
      return reply.code(201).send({ ...present(created.record), key: created.secret });
    },
  });

  app.patch('/api/api-keys/:key_id', {
    config,
    schema: {
      operationId: 'updateApiKey',
      tags,
      summary: 'Rename the calling key or a key below it, or change its rate limits or storage quota',
      params: KeyParamsSchema,
      body: UpdateBodySchema,
      response: withErrors({ 200: Type.Ref('ApiKey') }, NOT_IN_LINE, { 403: ['rate_limit_escalation'] }),
    },
    handler: async (request) => {
      const { name, rate_limits: rateLimits, storage_quota_mb: storageQuotaMb } = request.body;
      return present(keys.update(request.params.key_id, { name, rateLimits, storageQuotaMb }, callerOf(request)));
    },
  });

  app.post('/api/api-keys/:key_id/revoke', {
    config,
    schema: {
      operationId: 'revokeApiKey',
      tags,
      summary: 'Revoke the calling key or a key below it; it stays listed and is refused with key_revoked',
      params: KeyParamsSchema,
      response: withErrors({ 200: Type.Ref('ApiKey') }, NOT_IN_LINE),
    },
    handler: async (request) => present(keys.revoke(request.params.key_id, callerOf(request))),
  });

  app.delete('/api/api-keys/:key_id', {
    config,
    schema: {
      operationId: 'deleteApiKey',
      tags,
      summary: 'Delete the calling key or a key below it; it is gone and refused as invalid_api_key',
      params: KeyParamsSchema,
      response: withErrors({ 204: Type.Null() }, NOT_IN_LINE),
    },
    handler: async (request, reply) => {
      keys.delete(request.params.key_id, callerOf(request));
      return reply.code(204).send(null);
    },
  });
};
