import { Type } from 'typebox';
import { durationOf } from '../audio/pcm.js';
import { encodedRate, encodePcm, type AudioFormat } from '../audio/encode.js';
import type { SynthesisRequest } from '../engines/types.js';
import { ApiError } from '../errors.js';
import type { JobRunContext } from '../jobs/types.js';
import type { AudioStore } from '../store/audio-store.js';
import { synthesizeAs, type RenderDeps, type VoiceRendering } from './voice-rendering.js';

export type VoiceType = 'preset' | 'clone' | 'design';

/** What speaking needs to know of a voice. */
export interface SpeakingVoice {
  id: string;
  type: VoiceType;
  engine: string;
  engineVoice: string;
  language: string;
  languages: string[];
  gender?: 'female' | 'male' | null;
  /** False for a preset whose engine or voice is no longer installed. */
  available: boolean;
  /** Clones and designs keep how they speak here (see voice-rendering.ts). */
  settings: Record<string, unknown>;
}

/** `en` speaks `en-US`; `en-US` speaks `en` and `en-US`, but not `en-GB`. */
export function speaksLanguage(voice: Pick<SpeakingVoice, 'language' | 'languages'>, language: string): boolean {
  const wanted = language.toLowerCase();
  const primary = wanted.split('-')[0];
  return [voice.language, ...voice.languages].some((candidate) => {
    const tag = candidate.toLowerCase();
    return tag === wanted || tag === primary || (!wanted.includes('-') && tag.split('-')[0] === primary);
  });
}

export function assertUsable(voice: SpeakingVoice): void {
  if (!voice.available) {
    throw new ApiError(503, 'voice_unavailable', `The engine of voice ${voice.id} is not installed on this machine`, {
      voice_id: voice.id,
      engine: voice.engine,
    });
  }
}

export function assertSpeaks(voice: SpeakingVoice, language: string): void {
  if (speaksLanguage(voice, language)) return;
  throw new ApiError(422, 'language_not_supported', `Voice ${voice.id} cannot speak ${language}`, {
    voice_id: voice.id,
    language,
    voice_languages: [voice.language, ...voice.languages],
  });
}

export interface SpokenFile {
  duration: number;
  sampleRate: number;
  timings: { words: unknown; phonemes: unknown } | null;
}

/**
 * Synthesizes in the engine host, encodes, and writes the file atomically. Progress from the
 * engine fills `[from, to)` of the job's progress.
 */
export async function speakToFile(
  deps: RenderDeps & { audio: AudioStore },
  job: { engine: string; request: SynthesisRequest; rendering?: VoiceRendering; format: AudioFormat; sampleRate?: number; stored: string },
  context: JobRunContext,
  span: { from: number; to: number; extra?: Record<string, unknown> } = { from: 0, to: 0.9 },
): Promise<SpokenFile> {
  const result = await synthesizeAs(deps, job.engine, job.request, job.rendering ?? {}, {
    signal: context.signal,
    onProgress: (fraction, stage) => context.progress(span.from + fraction * (span.to - span.from), stage ?? 'synthesizing', span.extra),
  });
  const audio = await encodePcm(result.pcm, job.format, { sampleRate: job.sampleRate, signal: context.signal });
  await deps.audio.write(job.stored, audio);
  const timings = result.words || result.phonemes ? { words: result.words ?? null, phonemes: result.phonemes ?? null } : null;
  return { duration: durationOf(result.pcm), sampleRate: encodedRate(job.format, job.sampleRate ?? result.pcm.sampleRate), timings };
}

export const GENERATION_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'aac', 'pcm'] as const satisfies readonly AudioFormat[];

export type GenerationFormat = (typeof GENERATION_FORMATS)[number];
export const GenerationFormatSchema = Type.Enum(GENERATION_FORMATS);

/**
 * What a job stores of a synthesis request: the text and how to speak it. A clone's reference
 * recording and style vector are read from the voice's files when the job runs.
 */
export const SpeechRequestSchema = Type.Object({
  text: Type.String(),
  voice: Type.String(),
  language: Type.Optional(Type.String()),
  speed: Type.Optional(Type.Number()),
  pitch: Type.Optional(Type.Number()),
  seed: Type.Optional(Type.Integer()),
});
