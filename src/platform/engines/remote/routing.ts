/**
 * Which queue an engine call goes to: the engine's voice sets among the live workers, and of those
 * that have the call's voice, the one with the most free slots. A voice no set lists still goes to
 * the engine (the engine, not the router, says whether it knows the voice).
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { EngineCall } from '../host/calls.js';
import type { EngineId } from '../engine-ids.js';
import type { WorkerAnnouncement } from './announcements.js';
import { noWorker } from './unavailable.js';
import { readVoiceSet } from './voice-sets.js';

export interface LiveVoiceSet {
  id: string;
  /** Slots of its workers not running a call at their last beat. */
  free: number;
}

/** The engine's voice sets that live workers take calls for. */
export function voiceSetsOf(workers: readonly WorkerAnnouncement[], engine: EngineId): LiveVoiceSet[] {
  const free = new Map<string, number>();
  for (const worker of workers) {
    const set = worker.voice_sets[engine];
    if (set !== undefined) free.set(set, (free.get(set) ?? 0) + Math.max(0, worker.slots - worker.running));
  }
  return [...free].map(([id, slots]) => ({ id, free: slots }));
}

/** The voice a call is for, when it is for one. */
function voiceOf(call: EngineCall): string | undefined {
  if (call.method === 'synthesize') return call.args[0].voice;
  if (call.method === 'voiceVector') return call.args[0];
  return undefined;
}

export class CallRouter {
  /** A set's digest names its content, so what was read once stays true. */
  private readonly voices = new LRUCache<string, Set<string>>({ max: 512 });

  constructor(private readonly redis: Redis) {}

  /** The voice set whose queue takes the call; no live worker with the engine is `no_worker_for_engine`. */
  async route(workers: readonly WorkerAnnouncement[], engine: EngineId, call: EngineCall): Promise<string> {
    const sets = voiceSetsOf(workers, engine);
    if (sets.length === 0) throw noWorker(engine);
    const voice = voiceOf(call);
    let candidates = sets;
    if (voice !== undefined && sets.length > 1) {
      const having = await Promise.all(sets.map(async (set) => ((await this.voicesOf(engine, set.id))?.has(voice) ? [set] : [])));
      if (having.flat().length > 0) candidates = having.flat();
    }
    const most = Math.max(...candidates.map((set) => set.free));
    const roomiest = candidates.filter((set) => set.free === most);
    return roomiest[Math.floor(Math.random() * roomiest.length)]!.id;
  }

  private async voicesOf(engine: EngineId, set: string): Promise<Set<string> | undefined> {
    const key = `${engine}:${set}`;
    const known = this.voices.get(key);
    if (known) return known;
    const read = await readVoiceSet(this.redis, engine, set);
    if (read) this.voices.set(key, read);
    return read;
  }
}
