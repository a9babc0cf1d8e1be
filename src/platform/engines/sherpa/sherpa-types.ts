/**
 * The part of sherpa-onnx-node 1.13.8's API that Timbre uses. The package ships no .d.ts; these
 * shapes were read from its JS wrappers (non-streaming-tts.js, non-streaming-asr.js, vad.js,
 * speaker-identification.js, resampler.js). Only the async and config-based calls are declared on
 * purpose: the legacy sync `generate({text,sid,speed})` segfaults on an empty result.
 */

export interface Waveform {
  samples: Float32Array;
  sampleRate: number;
}

export interface GenerationConfigOptions {
  sid?: number;
  speed?: number;
  silenceScale?: number;
  numSteps?: number;
  referenceAudio?: Float32Array;
  referenceSampleRate?: number;
  referenceText?: string;
  extra?: Record<string, number | string>;
}

export interface TtsProgress {
  samples: Float32Array;
  progress: number;
}

export interface GenerateAsyncRequest {
  text: string;
  generationConfig: object;
  /** Returning false asks sherpa to stop (best effort: a few more chunks may still come). */
  onProgress?: (info: TtsProgress) => boolean;
  enableExternalBuffer?: boolean;
}

export interface OfflineTts {
  readonly numSpeakers: number;
  readonly sampleRate: number;
  generateAsync(request: GenerateAsyncRequest): Promise<Waveform>;
}

export interface OfflineStream {
  acceptWaveform(wave: Waveform): void;
}

export interface OfflineRecognizerResult {
  lang: string;
  text: string;
  tokens: string[];
  timestamps: number[];
}

export interface OfflineRecognizer {
  createStream(): OfflineStream;
  /** Replaces the config at run time; for Whisper this switches the language. */
  setConfig(config: object): void;
  decodeAsync(stream: OfflineStream): Promise<OfflineRecognizerResult>;
}

export interface OnlineStream {
  acceptWaveform(wave: Waveform): void;
  inputFinished(): void;
}

export interface SpeakerEmbeddingExtractor {
  readonly dim: number;
  createStream(): OnlineStream;
  isReady(stream: OnlineStream): boolean;
  compute(stream: OnlineStream, enableExternalBuffer: boolean): Float32Array;
}

export interface SpeechSegment {
  /** Sample index of the segment's start. */
  start: number;
  samples: Float32Array;
}

export interface Vad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(enableExternalBuffer: boolean): SpeechSegment;
  pop(): void;
  flush(): void;
  reset(): void;
}

export interface LinearResampler {
  resample(samples: Float32Array): Float32Array;
  flush(samples: Float32Array): Float32Array;
}

export interface SherpaModule {
  OfflineTts: { createAsync(config: object): Promise<OfflineTts> };
  GenerationConfig: new (options: GenerationConfigOptions) => object;
  OfflineRecognizer: { createAsync(config: object): Promise<OfflineRecognizer> };
  SpeakerEmbeddingExtractor: new (config: object) => SpeakerEmbeddingExtractor;
  Vad: new (config: object, bufferSizeInSeconds: number) => Vad;
  LinearResampler: new (inputRate: number, outputRate: number) => LinearResampler;
  version: string;
}
