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
