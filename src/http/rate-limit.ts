import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

const WINDOW_MS = 60_000;

function scopeOf(request: FastifyRequest): string {
  return request.routeOptions.config.scope ?? 'none';
}

/**
 * Requests per minute, counted per key and per scope, with the key's own limit for that scope.
 * Authentication runs first (an app-level hook), so every counted request has a key.
 */
export async function installRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: WINDOW_MS,
    allowList: (request) => !request.apiKey,
    keyGenerator: (request) => `${request.apiKey?.keyId}:${scopeOf(request)}`,
    max: (request) => request.apiKey?.rateLimits[request.routeOptions.config.scope ?? 'system:read'] ?? 0,
    errorResponseBuilder: (request, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return new ApiError(429, 'rate_limited', `Rate limit of ${context.max} requests per minute reached for ${scopeOf(request)}`, {
        scope: scopeOf(request),
        limit: context.max,
        retry_after_seconds: retryAfter,
      });
    },
  });
}
