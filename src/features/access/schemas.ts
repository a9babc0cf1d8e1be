import { Type } from 'typebox';
import { ALL_SCOPES, type Scope } from './scopes.js';

const perMinute = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute' });

export const ScopeSchema = Type.Unsafe<Scope>({ type: 'string', enum: ALL_SCOPES, description: 'Permission attached to a key' });

export const RateLimitsSchema = Type.Object(
  Object.fromEntries(ALL_SCOPES.map((scope) => [scope, Type.Optional(perMinute)])) as Record<Scope, ReturnType<typeof Type.Optional<typeof perMinute>>>,
  { additionalProperties: false, description: 'Requests per minute, per scope' },
);
