import { LRUCache } from 'lru-cache';
import type { TranscriptSegment } from '../../platform/engines/types.js';
import { sha256File } from '../../platform/util/sha256-file.js';

/** What recognizing one recording gave, before the request's timestamps shape it. */
export interface HeardRecording {
  language: string;
  segments: TranscriptSegment[];
}

/** Everything that decides what a recognizer hears in a recording; the same key, the same transcript. */
export interface HearingKey {
  path: string;
  recognizer: string;
  /** The requested language; undefined when the recognizer detects it. */
  language: string | undefined;
  /** Whether Silero VAD chose the windows and skipped the silence. */
  vad: boolean;
  windowSeconds: number;
}

/**
 * The last transcripts made, by the recording's bytes and how they were heard: a recording asked
 * for again (another format, SRT after JSON, the same file uploaded twice) is answered without
 * recognizing it again. Recognition is deterministic for a given recognizer and input, so a hit is
 * the transcript a new run would give. Keyed by the file's SHA-256, not its path, so a new upload of
 * the same bytes hits and a changed file misses. `entries` 0 keeps nothing.
 */
export class TranscriptCache {
  private readonly entries: LRUCache<string, HeardRecording> | undefined;

  constructor(entries: number) {
    this.entries = entries > 0 ? new LRUCache({ max: entries }) : undefined;
  }

  /** The cached transcript, or `hear()`'s, kept for next time. */
  async heard(key: HearingKey, signal: AbortSignal, hear: () => Promise<HeardRecording>): Promise<HeardRecording> {
    if (!this.entries) return hear();
    const id = JSON.stringify([await sha256File(key.path, signal), key.recognizer, key.language ?? null, key.vad, key.windowSeconds]);
    const cached = this.entries.get(id);
    if (cached) return cached;
    const heard = await hear();
    this.entries.set(id, heard);
    return heard;
  }
}
