import { Type } from 'typebox';
import { ALL_BUDGETS, ALL_SCOPES, type Budget, type Scope } from './scopes.js';

const perMinute = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute' });

export const ScopeSchema = Type.Unsafe<Scope>({ type: 'string', enum: ALL_SCOPES, description: 'Permission attached to a key' });

export const RateLimitsSchema = Type.Object(
  Object.fromEntries(ALL_BUDGETS.map((budget) => [budget, Type.Optional(perMinute)])) as Record<Budget, ReturnType<typeof Type.Optional<typeof perMinute>>>,
  {
    additionalProperties: false,
    description:
      'Requests per minute, per budget: one per scope the key holds, and task_reads (reads of the key’s own tasks, which need tts:generate but do not spend it) for a key holding tts:generate. task_reads is a budget, not a scope.',
  },
);

/** The most a key's quota may name: a petabyte. */
const MAX_QUOTA_MB = 2 ** 30;

// One schema of two types, not a union: with type coercion on, a union's branch tried first would read 0 as null or null as 0.
export const StorageQuotaSchema = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 0,
  maximum: MAX_QUOTA_MB,
  description:
    'Megabytes (MiB) of stored files the key may hold before new work is refused with 507 storage_quota_exceeded; 0: no limit; null: the default (TIMBRE_STORAGE_QUOTA_MB)',
});
