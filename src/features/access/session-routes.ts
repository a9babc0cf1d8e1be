import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { TimestampSchema } from '../../platform/http/schemas.js';
import { errorResponse, withErrors, withHeaders } from '../../platform/http/responses.js';
import { assertSameOrigin } from './auth.js';
import { ScopeSchema } from './schemas.js';
import { SESSION_COOKIE, type SessionService } from './sessions.js';
import type { ApiKeyRecord } from './repository.js';
import { SignInThrottled } from './sign-in-throttle.js';

export const SessionSchema = Type.Object(
  {
    signed_in: Type.Literal(true),
    key_id: Type.String({ description: 'The key the session acts as; revoking it ends the session' }),
    name: Type.String({ description: 'That key’s name' }),
    scopes: Type.Array(ScopeSchema),
    expires_at: TimestampSchema,
  },
  { $id: 'Session', description: 'A studio session: the key it acts as and when it ends' },
);

const SignedOutSchema = Type.Object(
  { signed_in: Type.Literal(false) },
  { description: 'No live session: no cookie, or its session ended (expired, signed out, replaced, or its key revoked or deleted)' },
);

const SignInSchema = Type.Union(
  [
    Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    Type.Object(
      { sign_in_token: Type.String({ minLength: 1, maxLength: 200, description: 'From the one-time link `timbre studio` prints' }) },
      { additionalProperties: false },
    ),
  ],
  { description: 'An API key, or the token of a one-time sign-in link' },
);

const config = { public: true } as const;
const tags = ['Studio sessions'];

const view = (key: ApiKeyRecord, expiresAt: string) => ({
  signed_in: true as const,
  key_id: key.keyId,
  name: key.name,
  scopes: key.scopes,
  expires_at: expiresAt,
});

/** Sign-in is public, so no key budget covers it: its own refusal declares the Retry-After it sends. */
const THROTTLED = withHeaders(errorResponse(429, ['sign_in_throttled']), {
  'Retry-After': { type: 'integer', description: 'Seconds until this address may try to sign in again' },
});

function clearCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict' });
}

/** Runs a sign-in; a refusal for too many failures carries its wait as Retry-After. */
function throttled<T>(reply: FastifyReply, signIn: () => T): T {
  try {
    return signIn();
  } catch (error) {
    if (error instanceof SignInThrottled) reply.header('retry-after', error.retryAfterSeconds);
    throw error;
  }
}

/**
 * Sessions for the studio in the browser: an HttpOnly, SameSite=Strict cookie stands in for the
 * key, so the page never holds one and audio elements can fetch what they play.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionService; sessionHours: number }> = async (app, { sessions, sessionHours }) => {
  app.post('/api/session', {
    config,
    schema: {
      operationId: 'signIn',
      tags,
      summary: 'Sign in to the studio',
      description:
        `Opens a session with an API key or a one-time sign-in link and sets the session cookie (${SESSION_COOKIE}: HttpOnly, ` +
        'SameSite=Strict). Needs no key header. Requests the cookie signs that change something, and /ws, must carry the studio’s own Origin.',
      security: [],
      body: SignInSchema,
      response: {
        ...withErrors({ 201: Type.Ref('Session') }, { 401: ['session_expired', 'sign_in_link_invalid'], 403: ['cross_site_request'] }),
        429: THROTTLED,
      },
    },
    handler: async (request, reply) => {
      // A page of another site must not sign the browser in under a key of its choosing.
      if (request.headers.origin !== undefined) assertSameOrigin(request);
      const opened = throttled(reply, () => sessions.open(request.body, request.ip));
      reply.setCookie(SESSION_COOKIE, opened.token, { path: '/', httpOnly: true, sameSite: 'strict', maxAge: sessionHours * 3600 });
      return reply.code(201).send(view(opened.key, opened.expiresAt));
    },
  });

  app.get('/api/session', {
    config,
    schema: {
      operationId: 'getSession',
      tags,
      summary: 'The current studio session, or signed_in false',
      description:
        'Answers 200 either way, so a page can ask on load without an error status: the session, or {"signed_in": false} (a cookie of a session that has ended is cleared).',
      security: [],
      response: withErrors({ 200: Type.Union([Type.Ref('Session'), SignedOutSchema]) }),
    },
    handler: async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return { signed_in: false as const };
      try {
        const { key, expiresAt } = sessions.authenticate(token);
        return view(key, expiresAt);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 401) throw error;
        clearCookie(reply);
        return { signed_in: false as const };
      }
    },
  });

  app.delete('/api/session', {
    config,
    schema: {
      operationId: 'signOut',
      tags,
      summary: 'Sign out of the studio',
      security: [],
      response: withErrors({ 204: Type.Null({ description: 'Signed out; the cookie is cleared' }) }, { 403: ['cross_site_request'] }),
    },
    handler: async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        assertSameOrigin(request);
        sessions.close(token);
      }
      clearCookie(reply);
      return reply.code(204).send(null);
    },
  });
};
