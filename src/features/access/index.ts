export { assertScope, callerOf, installAuth, presentedKey } from './auth.js';
export { installRateLimits, RequestLimits } from './rate-limit.js';
export { ApiKeyRepository, type ApiKeyRecord } from './repository.js';
export { ApiKeySchema, apiKeyRoutes } from './routes.js';
export { ALL_BUDGETS, BUDGET_DEFAULT_LIMITS, isBudget, isScope, type RateLimits, type Scope } from './scopes.js';
export { KeyService, publicView } from './service.js';
export { SessionRepository } from './session-repository.js';
export { SessionSchema, sessionRoutes } from './session-routes.js';
export { SessionService, SESSION_COOKIE } from './sessions.js';
