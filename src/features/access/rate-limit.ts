import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import { assertScope } from './auth.js';
import type { ApiKeyRecord } from './repository.js';
import type { Budget, Scope } from './scopes.js';
import type { KeyService } from './service.js';
import { SlidingWindowLimiter, type Admission } from './sliding-window.js';

const WINDOW_MS = 60_000;

/**
 * Requests per minute, counted per key and per budget in a sliding 60-second window. A request
 * draws on its key's budget (its scope's, unless the route names another budget) and on the same
 * budget of every key above it (the key that created it through the API, and so on), so keys a key
 * mints share its budget and cannot multiply it. One instance serves every way in (HTTP, Wyoming),
 * so a key's budget is the same whichever way its requests come.
 */
export class RequestLimits {
  private readonly limiter = new SlidingWindowLimiter(WINDOW_MS);

  constructor(private readonly keys: KeyService) {}

  /** Counts one request of the key against the budget; `allowed` false when it is spent. */
  take(key: ApiKeyRecord, budget: Budget): Admission {
    const budgets = this.keys.budgetChain(key.keyId).map((link) => ({ id: `${link.keyId}:${budget}`, limit: link.rateLimits[budget] ?? 0 }));
    return this.limiter.take(budgets, Date.now());
  }

  /**
   * For ways in other than an HTTP route: the key must hold the scope, and the request is counted
   * against the budget (the scope's own unless named); throws 403 or 429 as a route would.
   */
  admit(key: ApiKeyRecord, scope: Scope, budget: Budget = scope): Admission {
    assertScope(key, scope);
    const admission = this.take(key, budget);
    if (!admission.allowed) throw rateLimited(admission, scope, budget);
    return admission;
  }
}

/** The 429 of a spent budget, with the seconds until it has room again. */
function rateLimited(admission: Admission, scope: Scope, budget: Budget): ApiError {
  const retryAfter = retryAfterSeconds(admission);
  return new ApiError(429, 'rate_limited', `Rate limit of ${admission.limit} requests per minute reached for ${budget}`, {
    scope,
    budget,
    limit: admission.limit,
    retry_after_seconds: retryAfter,
  });
}

function retryAfterSeconds(admission: Admission): number {
  return Math.max(1, admission.resetSeconds);
}

function setHeaders(reply: FastifyReply, admission: Admission): void {
  reply.header('x-ratelimit-limit', admission.limit);
  reply.header('x-ratelimit-remaining', admission.remaining);
  reply.header('x-ratelimit-reset', admission.resetSeconds);
}

/**
 * Every route with a scope counts its requests (RequestLimits). Authentication runs first (an
 * app-level hook), so every counted request has a key; unauthenticated ones are refused before
 * they count.
 */
export function installRateLimits(app: FastifyInstance, limits: RequestLimits): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const { scope, budget = scope } = request.routeOptions.config;
    const key = request.apiKey;
    if (!scope || !budget || !key) return;
    const admission = limits.take(key, budget);
    setHeaders(reply, admission);
    if (admission.allowed) return;
    reply.header('retry-after', retryAfterSeconds(admission));
    throw rateLimited(admission, scope, budget);
  });
}
