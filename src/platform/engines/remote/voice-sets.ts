/**
 * Two machines may have different voices of one engine (another Piper model, a newer eSpeak NG).
 * Each worker names what it has of each engine by a digest of its voice ids, a voice set, and takes
 * that engine's work from the queue of its set; a call for a voice goes to a set that has it. Sets
 * are written beside the announcements, with the same lifetime, and read once per digest.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EngineId } from '../engine-ids.js';

export interface VoiceSet {
  id: string;
  voices: string[];
}

export function voiceSet(voices: readonly string[]): VoiceSet {
  const sorted = [...new Set(voices)].sort();
  return { id: createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 12), voices: sorted };
}

const setKey = (engine: EngineId, set: string) => `timbre:voices:${engine}:${set}`;

/** Writes (again) every set a worker has: a Redis that restarted empty has them back within a beat. */
export function publishVoiceSets(redis: Redis, sets: ReadonlyMap<EngineId, VoiceSet>, ttlMs: number) {
  const batch = redis.multi();
  for (const [engine, set] of sets) batch.set(setKey(engine, set.id), JSON.stringify(set.voices), 'PX', ttlMs);
  return batch;
}

/** The voices of a set, or undefined when no live worker has written it. */
export async function readVoiceSet(redis: Redis, engine: EngineId, set: string): Promise<Set<string> | undefined> {
  const value = await redis.get(setKey(engine, set));
  if (value === null) return undefined;
  try {
    const voices: unknown = JSON.parse(value);
    return Array.isArray(voices) ? new Set(voices.filter((voice): voice is string => typeof voice === 'string')) : undefined;
  } catch {
    return undefined;
  }
}
