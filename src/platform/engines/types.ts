import type { VoiceAnalysis } from '../audio/analyse/index.js';
import type { Pcm } from '../audio/pcm.js';
import { EngineError } from '../errors.js';
import { EngineKind } from '../models/catalog.js';
import type { EngineId } from './engine-ids.js';
import type { Phonemes } from '../text/ssml/segments.js';

export interface EngineCapabilities {
  /** Engine family id, e.g. `pico`, `espeak`, `festival`, `flite`, `kokoro`, `pocketsphinx`. */
  engine: EngineId;
  kind: EngineKind;
  /** True for sherpa-onnx models, false for the built-in Debian engines. */
  neural: boolean;
  /** BCP-47 tags the engine handles, e.g. `en-US`, `de-DE`, `fr`. */
  languages: string[];
  wordTimings: boolean;
  phonemeTimings: boolean;
  /** Speaks with the voice of a reference recording (zero-shot cloning). */
  referenceAudio: boolean;
  /** Voices are vectors that can be mixed (Kokoro style vectors). */
  blendableVoices: boolean;
  /** Honours a speed factor. */
  speed: boolean;
  /** Pitch factors the engine applies natively (cleaner than shifting the audio afterwards). */
  pitch?: { min: number; max: number };
  /** Speaks `SynthesisRequest.phonemes` (IPA or X-SAMPA) as sounds. */
  phonemeInput?: boolean;
}

export interface WordTiming {
  word: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

/** A word a recognizer heard, with how sure it was of it. */
export interface RecognizedWord extends WordTiming {
  /** The recognizer's probability that this word is right, 0–1; null when the recognizer gives none. */
  probability: number | null;
}

export interface PhonemeTiming {
  phoneme: string;
  start: number;
  end: number;
}

export type Gender = 'female' | 'male';

export interface VoiceInfo {
  /** Globally unique and stable: `<engine>:<engine voice name>`, e.g. `pico:en-US`, `espeak:mb-us1`. */
  id: string;
  engine: EngineId;
  /** Human name, e.g. "Pico US English (female)". */
  name: string;
  /** Main language (BCP-47). */
  language: string;
  languages: string[];
  gender: Gender | null;
  /** Native output rate of this voice. */
  sampleRate: number;
  /** License of the voice data, e.g. "MBROLA (non-commercial)". */
  license: string;
  description?: string;
}

export interface JobContext {
  signal: AbortSignal;
  /** Fraction 0..1 done; engines call it at least once per second of work when they can. */
  progress(fraction: number, stage?: string): void;
  /**
   * Present when the caller streams: an engine that synthesizes piece by piece hands each piece
   * here as soon as it is ready, in order, its timings relative to the start of the whole result.
   * The whole result is still returned at the end. An engine that can wait should await the answer
   * before the next piece: it settles once the piece has left, which a blocking engine otherwise
   * keeps from happening until it is done.
   */
  audio?(piece: SynthesisResult): void | Promise<void>;
}

export interface SynthesisRequest {
  text: string;
  /** A VoiceInfo id of this engine. */
  voice: string;
  language?: string;
  /** 1 is the voice's normal rate; 0.5 to 2. */
  speed?: number;
  /** 1 is the voice's normal pitch, 2 an octave up; within the engine's `pitch` range. Engines without one ignore it. */
  pitch?: number;
  /** Voice of a reference recording, for engines with `referenceAudio`. */
  referenceAudio?: Pcm;
  referenceText?: string;
  /** A blended style vector, for engines with `blendableVoices`. */
  style?: Float32Array;
  seed?: number;
  /**
   * Say these sounds instead of `text`, for engines with `phonemeInput`; an engine without it
   * speaks `text` (the written word), the documented fallback.
   */
  phonemes?: Phonemes;
}

export interface SynthesisResult {
  pcm: Pcm;
  words?: WordTiming[];
  phonemes?: PhonemeTiming[];
}

export interface Synthesizer {
  readonly capabilities: EngineCapabilities;
  listVoices(): Promise<VoiceInfo[]>;
  synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult>;
  /** Style vector of a preset voice, for engines with `blendableVoices`. */
  voiceVector?(voice: string): Promise<Float32Array>;
  dispose?(): Promise<void>;
}

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  words: RecognizedWord[];
}

export interface Transcript {
  text: string;
  language: string;
  duration: number;
  segments: TranscriptSegment[];
}

export interface RecognitionRequest {
  pcm: Pcm;
  /** Absent: detect when the engine can. */
  language?: string;
  /** Restrict recognition to this text (forced alignment), when the engine can. */
  expectedText?: string;
}

export interface Recognizer {
  readonly capabilities: EngineCapabilities;
  recognize(request: RecognitionRequest, context: JobContext): Promise<Transcript>;
  dispose?(): Promise<void>;
}

export interface VoicePrint {
  /** Which extractor made it; prints of different methods are not comparable. */
  method: string;
  vector: Float32Array;
}

export interface VoicePrinter {
  readonly capabilities: EngineCapabilities;
  extract(pcm: Pcm, context: JobContext): Promise<VoicePrint>;
  /** 0 (different speakers) .. 1 (same). */
  similarity(a: VoicePrint, b: VoicePrint): number;
  /** The full acoustic analysis (pitch, formants, spectrum, rate), for printers that make one. */
  analyse?(pcm: Pcm, context: JobContext): Promise<VoiceAnalysis>;
  dispose?(): Promise<void>;
}

export interface SpeechRegion {
  start: number;
  end: number;
}

export interface VoiceActivityDetector {
  readonly capabilities: EngineCapabilities;
  detect(pcm: Pcm, context: JobContext): Promise<SpeechRegion[]>;
  dispose?(): Promise<void>;
}

export type Engine = Synthesizer | Recognizer | VoicePrinter | VoiceActivityDetector;

/** Whether an engine can run on this machine, and if not, why. */
export interface Availability {
  available: boolean;
  reason?: string;
  /** Error code for using the engine anyway, e.g. `model_invalid` when its files fail validation. */
  code?: string;
}

/** Settings the engine host hands every engine it loads; engines take what concerns them. */
export interface EngineSettings {
  /** Longest a built-in engine's program may run on one piece of text (`engine_piece_timeout`). */
  pieceTimeoutMs: number;
}

/**
 * How the engine host finds and loads an engine: `probe` is cheap (binaries present, model files
 * valid) and never loads native code; `load` does, once, in the host process.
 */
export interface EngineDescriptor<E extends Engine = Engine> {
  id: EngineId;
  kind: EngineKind;
  neural: boolean;
  probe(): Promise<Availability>;
  /** Without settings an engine uses its defaults. */
  load(settings?: EngineSettings): Promise<E>;
}

/**
 * Engine failures whose text comes from a program or a library (its stderr, argument lists, file
 * paths): outside the service they carry a fixed message and no details; the server log keeps the
 * original.
 */
const OPAQUE_FAILURES: Record<string, string> = {
  engine_failed: 'The engine failed on this request',
  engine_crashed: 'The engine stopped working on this request; it has been restarted',
};

/** What of an engine error may be shown outside the service. */
export function publicEngineError(error: EngineError): { code: string; message: string; details: Record<string, unknown> } {
  const message = OPAQUE_FAILURES[error.code];
  return message === undefined ? { code: error.code, message: error.message, details: error.details } : { code: error.code, message, details: {} };
}

/** Whether the server should log the error itself: the public form hides what it said. */
export function isOpaqueEngineFailure(error: EngineError): boolean {
  return error.code in OPAQUE_FAILURES;
}
