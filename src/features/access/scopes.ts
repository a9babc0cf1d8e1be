/** The ten scopes of the interface contract, with their default requests-per-minute limits. */
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
} as const;

export type Scope = keyof typeof SCOPE_DEFAULT_LIMITS;
export type RateLimits = Partial<Record<Scope, number>>;

export const ALL_SCOPES = Object.keys(SCOPE_DEFAULT_LIMITS) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPE_DEFAULT_LIMITS, value);
}
