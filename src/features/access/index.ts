export { callerOf, installAuth } from './auth.js';
export { installRateLimits } from './rate-limit.js';
export { ApiKeyRepository, type ApiKeyRecord } from './repository.js';
export { ApiKeySchema, apiKeyRoutes } from './routes.js';
export { isScope, type RateLimits, type Scope } from './scopes.js';
export { KeyService, publicView } from './service.js';
