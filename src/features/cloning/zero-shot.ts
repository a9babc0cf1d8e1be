import { durationOf, type Pcm } from '../../platform/audio/pcm.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { CloneTarget, ProbeTools } from './target.js';
import { scoreProbe, speakProbe } from './target.js';

/**
 * `zero_shot`: an engine that speaks with the voice of a reference recording (Pocket TTS, ZipVoice).
 * Nothing is fitted; the reference is the fitting audio (never the held-out part), at most 10 s,
 * which is all Pocket TTS reads of it.
 */
const REFERENCE_SECONDS = 10;

export interface ZeroShotEngine {
  engine: EngineId;
  engineVoice: string;
  /** ZipVoice needs the words of its reference. */
  needsTranscript: boolean;
}

export interface ZeroShotResult {
  reference: Pcm;
  transcript: string | null;
  /** The probe sentences as the clone speaks them. */
  probe: Pcm;
  fitSimilarity: number;
  similarity: number;
  measured: boolean;
}

/** The reference for a zero-shot voice: with a transcript, the one sample it belongs to, whole. */
export function zeroShotReference(target: CloneTarget, transcribed?: { pcm: Pcm; transcript: string }): Pcm {
  if (transcribed) return transcribed.pcm;
  const length = Math.min(target.fitAudio.samples.length, Math.round(REFERENCE_SECONDS * target.fitAudio.sampleRate));
  return { samples: target.fitAudio.samples.slice(0, length), sampleRate: target.fitAudio.sampleRate };
}

export async function measureZeroShot(
  tools: ProbeTools,
  target: CloneTarget,
  engine: ZeroShotEngine,
  reference: Pcm,
  transcript: string | null,
): Promise<ZeroShotResult> {
  if (durationOf(reference) === 0) throw new Error('empty zero-shot reference');
  const extra = transcript ? { referenceAudio: reference, referenceText: transcript } : { referenceAudio: reference };
  const probe = await speakProbe(tools, { engine: engine.engine, engineVoice: engine.engineVoice }, target.language, extra);
  return { reference, transcript, probe, ...(await scoreProbe(tools, target, probe)) };
}
