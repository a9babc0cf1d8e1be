import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { TIMBRE_VERSION } from '../install-dir.js';
import { finishDocument } from './openapi-finish.js';
import { withErrors } from './responses.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas that validate requests;
 * each operation carries the scope it needs as `x-scope`.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Timbre',
        version: TIMBRE_VERSION,
        description:
          'Local speech synthesis and voice cloning. Every request carries an API key in X-API-Key; ' +
          'each operation needs the scope named in x-scope and is rate-limited per key per minute, in the budget of that scope ' +
          'or, where it names one, in the budget named in x-budget.',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      servers: [{ url: 'http://127.0.0.1:8765' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          StudioSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'timbre_session',
            description: 'The studio’s session (POST /api/session); writes and /ws must come from the studio’s own Origin',
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    transform: ({ schema, url, route }) => {
      const scope = route.config?.scope;
      // A route any key may call (MCP) checks each operation's scope itself, so it names none; it takes a key, not the studio's session.
      if (route.config?.anyKey) return { schema: { ...schema, security: [{ ApiKey: [] }] }, url };
      // Public routes (the studio, signing in) need no key; every other one names its scope.
      if (!scope) return { schema, url };
      // x-budget: the rate-limit budget its requests count against, where it is not the scope's own.
      const budget = route.config?.budget;
      const extensions: Record<string, string> = budget ? { 'x-scope': scope, 'x-budget': budget } : { 'x-scope': scope };
      return { schema: { ...schema, security: [{ ApiKey: [] }, { StudioSession: [] }], ...extensions }, url };
    },
    transformObject: (document) => ('openapiObject' in document ? finishDocument(document.openapiObject) : document.swaggerObject),
  });

  app.get('/api/openapi.json', {
    config: { scope: 'system:read' },
    schema: {
      operationId: 'getOpenApiDocument',
      tags: ['System'],
      summary: 'This OpenAPI document',
      response: withErrors({ 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }) }),
    },
    handler: () => app.swagger(),
  });
}
