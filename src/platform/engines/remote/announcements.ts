/**
 * Workers announce themselves in Redis: one key per worker (and its voice sets), written every
 * HEARTBEAT_MS and expiring after three missed beats, so a worker that dies drops out by itself.
 */
import type { Redis } from 'ioredis';
import { isEngineId, type EngineId } from '../engine-ids.js';
import { isObject as isRecord } from '../host/results.js';
import { publishVoiceSets, type VoiceSet } from './voice-sets.js';

export const HEARTBEAT_MS = 2000;
export const ANNOUNCEMENT_TTL_MS = 3 * HEARTBEAT_MS;
const PREFIX = 'timbre:worker:';

export interface WorkerAnnouncement {
  id: string;
  host: string;
  slots: number;
  engines: EngineId[];
  /** The voice set of each engine it has: where its calls for the engine come from. */
  voice_sets: Partial<Record<EngineId, string>>;
  /** Calls running now, and finished since the worker started. */
  running: number;
  completed: number;
  last_seen: string;
}

export async function announce(redis: Redis, worker: Omit<WorkerAnnouncement, 'engines' | 'voice_sets'>, sets: ReadonlyMap<EngineId, VoiceSet>): Promise<void> {
  const voice_sets = Object.fromEntries([...sets].map(([engine, set]) => [engine, set.id]));
  await publishVoiceSets(redis, sets, ANNOUNCEMENT_TTL_MS)
    .set(PREFIX + worker.id, JSON.stringify({ ...worker, voice_sets }), 'PX', ANNOUNCEMENT_TTL_MS)
    .exec();
}

export async function withdraw(redis: Redis, id: string): Promise<void> {
  await redis.del(PREFIX + id);
}

/** The workers alive now; an announcement that is not one (another program's key) is skipped. */
export async function liveWorkers(redis: Redis): Promise<WorkerAnnouncement[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  if (keys.length === 0) return [];
  const values = await redis.mget(keys);
  return values.flatMap((value) => {
    const worker = parse(value);
    return worker ? [worker] : [];
  });
}

function parse(value: string | null): WorkerAnnouncement | undefined {
  if (value === null) return undefined;
  try {
    const raw: unknown = JSON.parse(value);
    if (!isRecord(raw)) return undefined;
    const { id, host, slots, voice_sets, running, completed, last_seen } = raw;
    if (typeof id !== 'string' || typeof host !== 'string' || typeof last_seen !== 'string' || !isRecord(voice_sets)) return undefined;
    if (typeof slots !== 'number' || typeof running !== 'number' || typeof completed !== 'number') return undefined;
    // Engines this build does not know (a newer worker's) are left out.
    const sets = Object.entries(voice_sets).filter((entry): entry is [EngineId, string] => isEngineId(entry[0]) && typeof entry[1] === 'string');
    return { id, host, slots, engines: sets.map(([engine]) => engine), voice_sets: Object.fromEntries(sets), running, completed, last_seen };
  } catch {
    return undefined;
  }
}
