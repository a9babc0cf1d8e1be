import type { Schemas } from '../../api.js';

export type Scope = Schemas['ApiKey']['scopes'][number];
export type RateLimits = Schemas['ApiKey']['rate_limits'];

/** Every scope of the API document's enum, in its order, with what it allows (docs/api.md). */
export const SCOPES = [
  { scope: 'tts:generate', meaning: 'Generate speech' },
  { scope: 'tts:timeline', meaning: 'Timeline editor' },
  { scope: 'voices:read', meaning: 'Read voices and categories' },
  { scope: 'voices:write', meaning: 'Modify or delete voices' },
  { scope: 'clone:create', meaning: 'Create voice clones and designs' },
  { scope: 'audio:process', meaning: 'Transcription, splitting, audio utilities' },
  { scope: 'system:read', meaning: 'System information, queue, API keys' },
  { scope: 'ws:connect', meaning: 'Live events (WebSocket)' },
  { scope: 'projects:read', meaning: 'Read compositions' },
  { scope: 'projects:write', meaning: 'Modify compositions' },
  { scope: 'models:manage', meaning: 'Install and remove neural models' },
  { scope: 'models:manage', meaning: 'Install and remove models' },
] as const satisfies readonly { scope: Scope; meaning: string }[];

/** Fails to compile when the document gains a scope this list lacks. */
type Unlisted = Exclude<Scope, (typeof SCOPES)[number]['scope']>;
const _everyScopeListed: [Unlisted] extends [never] ? true : Unlisted = true;
