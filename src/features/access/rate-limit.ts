import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { KeyService } from './service.js';
import { SlidingWindowLimiter, type Admission } from './sliding-window.js';

const WINDOW_MS = 60_000;

function setHeaders(reply: FastifyReply, admission: Admission): void {
  reply.header('x-ratelimit-limit', admission.limit);
  reply.header('x-ratelimit-remaining', admission.remaining);
  reply.header('x-ratelimit-reset', admission.resetSeconds);
}

/**
 * Requests per minute, counted per key and per budget in a sliding 60-second window. A request
 * draws on its key's budget for the route (its scope's, unless the route names another budget)
 * and on the same budget of every key above it (the key that created it through the API, and so
 * on), so keys a key mints share its budget and cannot multiply it. Authentication runs first (an
 * app-level hook), so every counted request has a key; unauthenticated ones are refused before
 * they count.
 */
export function installRateLimits(app: FastifyInstance, keys: KeyService): void {
  const limiter = new SlidingWindowLimiter(WINDOW_MS);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const { scope, budget = scope } = request.routeOptions.config;
    const key = request.apiKey;
    if (!scope || !budget || !key) return;
    const budgets = keys.budgetChain(key.keyId).map((link) => ({ id: `${link.keyId}:${budget}`, limit: link.rateLimits[budget] ?? 0 }));
    const admission = limiter.take(budgets, Date.now());
    setHeaders(reply, admission);
    if (admission.allowed) return;
    const retryAfter = Math.max(1, admission.resetSeconds);
    reply.header('retry-after', retryAfter);
    throw new ApiError(429, 'rate_limited', `Rate limit of ${admission.limit} requests per minute reached for ${budget}`, {
      scope,
      budget,
      limit: admission.limit,
      retry_after_seconds: retryAfter,
    });
  });
}
