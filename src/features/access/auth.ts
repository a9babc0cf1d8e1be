import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { KeyService } from './service.js';
import { SESSION_COOKIE, type SessionService } from './sessions.js';
import type { Budget, Scope } from './scopes.js';
import type { ApiKeyRecord } from './repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one scope a key needs for this route. */
    scope?: Scope;
    /** The budget its requests count against when it is not the scope's own (reads of one's tasks: `task_reads`). */
    budget?: Budget;
    /** Served without a key: the studio's page and assets, and signing in itself. */
    public?: true;
    /** Also accept the key as the `api_key` query parameter (WebSocket handshakes from browsers). */
    keyInQuery?: boolean;
    /**
     * Any valid key may call it, and what it does checks each operation's scope and budget itself:
     * the MCP endpoint, whose tools each act as a REST route would.
     */
    anyKey?: true;
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
export function presentedKey(request: FastifyRequest): string | undefined {
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
 * A browser sends the session cookie with every request to this origin, whoever made the page:
 * so a request authenticated by it that changes something, or opens the WebSocket, must come from
 * a page of this very origin (SameSite=Strict already keeps the cookie off other sites' requests).
 */
export function assertSameOrigin(request: FastifyRequest): void {
  const reads = (request.method === 'GET' || request.method === 'HEAD') && request.headers.upgrade === undefined;
  const origin = request.headers.origin;
  if (reads && origin === undefined) return;
  if (origin !== undefined && URL.canParse(origin) && new URL(origin).host === request.headers.host?.toLowerCase()) return;
  throw new ApiError(403, 'cross_site_request', 'A request signed in by the studio session must come from the studio itself (its Origin header)', {
    origin: origin ?? null,
  });
}

/** The key of a request: a presented key, else the studio session's cookie. */
function authenticated(request: FastifyRequest, keys: KeyService, sessions: SessionService): ApiKeyRecord {
  const presented = presentedKey(request);
  if (presented) return keys.authenticate(presented);
  const session = request.cookies[SESSION_COOKIE];
  if (!session) throw new ApiError(401, 'missing_api_key', 'Send an API key in the X-API-Key header or as Authorization: Bearer <key>');
  assertSameOrigin(request);
  return sessions.authenticate(session).key;
}

/**
 * Every route must name its scope, take any key, or be public (registration fails otherwise); each
 * request is then authenticated and checked against that scope before anything else runs.
 */
export function installAuth(app: FastifyInstance, keys: KeyService, sessions: SessionService): void {
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' || [route.method].flat().every((method) => method === 'OPTIONS')) return;
    if (!route.config?.scope && !route.config?.public && !route.config?.anyKey) throw new Error(`Route ${String(route.method)} ${route.url} declares no scope`);
  });

  app.addHook('onRequest', async (request) => {
    const { scope, anyKey } = request.routeOptions.config;
    if (!scope && !anyKey) return;
    const key = authenticated(request, keys, sessions);
    if (scope) assertScope(key, scope);
    request.apiKey = key;
  });
}

/** 403 unless the key holds the scope. */
export function assertScope(key: ApiKeyRecord, scope: Scope): void {
  if (key.scopes.includes(scope)) return;
  throw new ApiError(403, 'insufficient_scope', `This key lacks the scope ${scope}`, { required_scope: scope, key_scopes: key.scopes });
}
