import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { KeyService } from './service.js';
import type { Scope } from './scopes.js';
import type { ApiKeyRecord } from './repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one scope a key needs for this route. */
    scope?: Scope;
    /** Also accept the key as the `api_key` query parameter (WebSocket handshakes from browsers). */
    keyInQuery?: boolean;
  }
  interface FastifyRequest {
    apiKey?: ApiKeyRecord;
  }
}

export const API_KEY_HEADER = 'x-api-key';

/** `Authorization: Bearer <key>`, the way OpenAI's SDKs and most HTTP clients send a key. */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key a request presents: `X-API-Key` first, else an `Authorization: Bearer` token. Neither
 * header is logged (the request serializer keeps only the method and the redacted URL).
 */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers[API_KEY_HEADER];
  if (typeof header === 'string' && header) return header;
  const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  if (request.routeOptions.config.keyInQuery) {
    const query = request.query as Record<string, unknown> | undefined;
    const fromQuery = query?.api_key;
    if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  }
  return undefined;
}

/** The key that made an authenticated request; routes run only after authentication succeeded. */
export function callerOf(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey) throw new Error('route reached without an authenticated key');
  return request.apiKey;
}

/**
 * Every route must name its scope (registration fails otherwise); each request is then
 * authenticated and checked against that scope before anything else runs.
 */
export function installAuth(app: FastifyInstance, keys: KeyService): void {
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' || [route.method].flat().every((method) => method === 'OPTIONS')) return;
    if (!route.config?.scope) throw new Error(`Route ${String(route.method)} ${route.url} declares no scope`);
  });

  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    const presented = presentedKey(request);
    if (!presented) throw new ApiError(401, 'missing_api_key', 'Send an API key in the X-API-Key header or as Authorization: Bearer <key>');
    const key = keys.authenticate(presented);
    if (!key.scopes.includes(scope)) {
      throw new ApiError(403, 'insufficient_scope', `This key lacks the scope ${scope}`, {
        required_scope: scope,
        key_scopes: key.scopes,
      });
    }
    request.apiKey = key;
  });
}
