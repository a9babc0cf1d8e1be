/** The ten scopes of the interface contract and Timbre's own (`models:manage`), with their default requests-per-minute limits. */
export const SCOPE_DEFAULT_LIMITS = {
  'tts:generate': 10,
  'tts:timeline': 30,
  'voices:read': 60,
  'voices:write': 20,
  'clone:create': 2,
  'audio:process': 5,
  'system:read': 60,
  'ws:connect': 5,
  'projects:read': 60,
  'projects:write': 20,
  'models:manage': 10,
} as const;

export type Scope = keyof typeof SCOPE_DEFAULT_LIMITS;

export const ALL_SCOPES = Object.keys(SCOPE_DEFAULT_LIMITS) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPE_DEFAULT_LIMITS, value);
}

/**
 * Every budget a rate limit is counted in, with its default requests per minute: one per scope,
 * and budgets that are not scopes. A route may count against one of these instead of its scope's
 * budget while a key still needs the route's scope to call it; no key can be granted one as a
 * scope. `task_reads`: reads of the key's own tasks (status, chunk list, audio, subtitles), which
 * need `tts:generate` as the contract says, but must not spend the generations a poll waits for.
 */
export const BUDGET_DEFAULT_LIMITS = { ...SCOPE_DEFAULT_LIMITS, task_reads: 300 } as const;

export type Budget = keyof typeof BUDGET_DEFAULT_LIMITS;
/** Requests per minute, per budget. */
export type RateLimits = Partial<Record<Budget, number>>;

/** A key's stored scopes as read back: the scopes among them (the store writes nothing else). */
export function readScopes(value: unknown): Scope[] {
  return Array.isArray(value) ? value.filter((scope): scope is Scope => typeof scope === 'string' && isScope(scope)) : [];
}

/** A key's stored rate limits as read back: a number per budget, nothing else. */
export function readRateLimits(value: unknown): RateLimits {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([budget, limit]) => isBudget(budget) && typeof limit === 'number'));
}

/** The scope that gives a key each budget that is not a scope. */
const SCOPE_OF_EXTRA_BUDGET: Readonly<Record<Exclude<Budget, Scope>, Scope>> = { task_reads: 'tts:generate' };

export const ALL_BUDGETS = Object.keys(BUDGET_DEFAULT_LIMITS) as Budget[];

export function isBudget(value: string): value is Budget {
  return Object.hasOwn(BUDGET_DEFAULT_LIMITS, value);
}

/** The budgets of a key holding `scopes`: one per scope, and each other budget whose scope it holds. */
export function budgetsOf(scopes: readonly Scope[]): Budget[] {
  const extra = ALL_BUDGETS.filter((budget): budget is Exclude<Budget, Scope> => !isScope(budget) && scopes.includes(SCOPE_OF_EXTRA_BUDGET[budget]));
  return [...scopes, ...extra];
}
