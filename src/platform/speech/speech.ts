import { Type } from 'typebox';
import { durationOf } from '../audio/pcm.js';
import { encodedRate, encodePcm, type AudioFormat } from '../audio/encode.js';
import { openStreamingEncoder, type StreamingEncoder } from '../audio/encode-stream.js';
import type { SynthesisRequest, SynthesisResult } from '../engines/types.js';
import { ApiError, EngineError } from '../errors.js';
import type { JobRunContext } from '../jobs/types.js';
import type { AudioStore } from '../store/audio-store.js';
import { synthesizeAs, type RenderDeps, type RenderProgress, type VoiceRendering } from './voice-rendering.js';

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

/** Milliseconds spent in each stage of speaking, as recorded on tasks and shown by the bench. */
export interface SpeakingStages {
  /** In the engine host, the voice's conversion included; while streaming, encoding overlaps it. */
  engine_ms: number;
  /** Encoding after the engine finished (all of it without streaming; the tail with). */
  encode_ms: number;
  store_ms: number;
}

export interface SpokenFile {
  /** The encoded audio, as stored. */
  audio: Buffer;
  duration: number;
  sampleRate: number;
  timings: { words: unknown; phonemes: unknown } | null;
  stages: SpeakingStages;
}

export interface SpeakingJob {
  engine: string;
  request: SynthesisRequest;
  rendering?: VoiceRendering;
  format: Exclude<AudioFormat, 'wav-float'>;
  sampleRate?: number;
  stored: string;
  /** Streaming: receives the encoded audio as it is made, sentence by sentence. */
  stream?: AudioSink;
}

export interface AudioSink {
  /** Called once, before the first bytes, with the rate the audio is encoded at. */
  start(sampleRate: number): void;
  write(bytes: Buffer): void;
}

/**
 * Synthesizes in the engine host, encodes, and writes the file atomically; with `stream`, the
 * encoded audio also goes out piece by piece while the engine still speaks. Progress from the
 * engine fills `[from, to)` of the job's progress.
 */
export async function speakToFile(
  deps: RenderDeps & { audio: AudioStore },
  job: SpeakingJob,
  context: JobRunContext,
  span: { from: number; to: number; extra?: Record<string, unknown> } = { from: 0, to: 0.9 },
): Promise<SpokenFile> {
  const clock = stageClock();
  const progress: RenderProgress = {
    signal: context.signal,
    onProgress: (fraction, stage) => context.progress(span.from + fraction * (span.to - span.from), stage ?? 'synthesizing', span.extra),
  };
  const { result, audio } = job.stream ? await speakStreaming(deps, job, progress, job.stream, clock) : await speakWhole(deps, job, progress, clock);
  await deps.audio.write(job.stored, audio);
  clock.lap('store_ms');
  const timings = result.words || result.phonemes ? { words: result.words ?? null, phonemes: result.phonemes ?? null } : null;
  return {
    audio,
    duration: durationOf(result.pcm),
    sampleRate: encodedRate(job.format, job.sampleRate ?? result.pcm.sampleRate),
    timings,
    stages: clock.stages,
  };
}

type StageClock = ReturnType<typeof stageClock>;

function stageClock() {
  const stages: SpeakingStages = { engine_ms: 0, encode_ms: 0, store_ms: 0 };
  let last = performance.now();
  return {
    stages,
    lap(stage: keyof SpeakingStages) {
      const now = performance.now();
      stages[stage] = Math.round((now - last) * 10) / 10;
      last = now;
    },
  };
}

async function speakWhole(deps: RenderDeps, job: SpeakingJob, progress: RenderProgress, clock: StageClock) {
  const result = await synthesizeAs(deps, job.engine, job.request, job.rendering ?? {}, progress);
  clock.lap('engine_ms');
  const audio = await encodePcm(result.pcm, job.format, { sampleRate: job.sampleRate, signal: progress.signal });
  clock.lap('encode_ms');
  return { result, audio };
}

/** The encoder opens on the first piece, whose rate it takes; a failure or cancellation stops it. */
async function speakStreaming(deps: RenderDeps, job: SpeakingJob, progress: RenderProgress, sink: AudioSink, clock: StageClock) {
  let encoder: StreamingEncoder | undefined;
  const onAudio = async (piece: SynthesisResult) => {
    if (!encoder) {
      sink.start(encodedRate(job.format, job.sampleRate ?? piece.pcm.sampleRate));
      encoder = openStreamingEncoder({
        format: job.format,
        inputRate: piece.pcm.sampleRate,
        sampleRate: job.sampleRate,
        onChunk: (bytes) => sink.write(bytes),
      });
    }
    await encoder.write(piece.pcm);
  };
  try {
    const result = await synthesizeAs(deps, job.engine, job.request, job.rendering ?? {}, { ...progress, onAudio });
    clock.lap('engine_ms');
    if (!encoder) throw new EngineError('engine_failed', 'The engine gave no audio');
    const streamed = await encoder.finish();
    // A FLAC stream cannot carry its length (the encoder writes it by seeking back); the stored
    // file is encoded again so that it does. MP3, Opus, AAC, WAV and PCM are stored as streamed.
    const audio = job.format === 'flac' ? await encodePcm(result.pcm, 'flac', { sampleRate: job.sampleRate, signal: progress.signal }) : streamed;
    clock.lap('encode_ms');
    return { result, audio };
  } catch (error) {
    encoder?.abort();
    throw error;
  }
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
