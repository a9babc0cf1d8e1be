import { encodedRate } from '../audio/encode.js';
import { openStreamingEncoder, type StreamingEncoder } from '../audio/encode-stream.js';
import { resample } from '../audio/effects.js';
import type { Pcm } from '../audio/pcm.js';
import { EngineError } from '../errors.js';
import { audioTooLong } from '../text/limits.js';
import { LoudnessEnvelope } from './loudness-envelope.js';
import type { RunSpan, SpokenTimings } from './plan-timings.js';
import type { AudioFormat } from '../audio/encode.js';

/** A sample above this (−50 dBFS) is sound; engines pad their speech with quieter (mostly digital silence). */
const SOUND = 10 ** (-50 / 20);
/** Of the quiet before a run's first sound, this much is kept, so the sound's onset is not cut. */
const ONSET_SECONDS = 0.01;

export interface AudioSink {
  /** Called once, before the first bytes, with the rate the audio is encoded at. */
  start(sampleRate: number): void;
  write(bytes: Buffer): void;
}

/** How the audio is written: its format and rate, its bound, and a stream that receives it as it is made. */
export interface OutputOptions {
  format: Exclude<AudioFormat, 'wav-float'>;
  sampleRate?: number;
  /** Seconds of audio the synthesis may make (TIMBRE_MAX_AUDIO_SECONDS); past them it stops with 422 `audio_too_long`. */
  maxSeconds: number;
  /** Streaming: receives the encoded audio as it is made, sentence by sentence. */
  stream?: AudioSink;
}

/** The written audio: how long, at which rate, and the times of its words. */
export interface SpokenAudio {
  duration: number;
  sampleRate: number;
  timings: SpokenTimings;
}

/**
 * The audio as it comes: counted against the bound, then encoded into the file (and the stream).
 * The encoder opens on the first piece, whose rate it takes; a run of another voice at another
 * rate is resampled to it. A pause (`break`) is the silence between the sound before it and the
 * sound after it: engines pad each run with silence of their own, so the pause waits for the
 * next sound, the quiet that run starts with is left out, and only what the quiet already written
 * lacks of the pause is added.
 */
export class SpokenOutput {
  private encoder: Promise<StreamingEncoder> | undefined;
  private samples = 0;
  private rate = 0;
  /** Seconds of pause waiting for the next sound. */
  private pausing = 0;
  /** Quiet samples at the end of what is written. */
  private quietTail = 0;
  private run = { start: 0, added: 0, dropped: 0 };
  readonly envelope = new LoudnessEnvelope();

  constructor(
    private readonly job: OutputOptions,
    private readonly file: string,
    private readonly stop: (reason: unknown) => void,
    private readonly signal: AbortSignal,
  ) {}

  /** Seconds of audio so far. */
  get seconds(): number {
    return this.rate === 0 ? 0 : this.samples / this.rate;
  }

  /** A run of speech starts: its span is counted from here. */
  beginRun(): void {
    this.run = { start: this.seconds, added: 0, dropped: 0 };
  }

  /** The span of the run since `beginRun`, with where its engine's time 0 fell. */
  runSpan(): RunSpan {
    const { start, added, dropped } = this.run;
    return { start, end: this.seconds, offset: start + (added - dropped) / (this.rate || 1) };
  }

  async add(piece: Pcm): Promise<void> {
    if (piece.samples.length === 0) return;
    const pcm = this.rate === 0 || piece.sampleRate === this.rate ? piece : await resample(piece, this.rate, this.signal);
    if (this.rate === 0) {
      this.rate = pcm.sampleRate;
      this.encoder = this.open(pcm.sampleRate);
    }
    if (this.pausing === 0) return this.write(pcm);
    const first = pcm.samples.findIndex((sample) => Math.abs(sample) > SOUND);
    const from = first < 0 ? pcm.samples.length : Math.max(0, first - Math.round(ONSET_SECONDS * this.rate));
    this.run.dropped += from;
    if (first < 0) return;
    const silence = this.pauseSamples();
    this.run.added += silence;
    this.pausing = 0;
    await this.write({ samples: new Float32Array(silence), sampleRate: this.rate });
    await this.write({ samples: pcm.samples.subarray(from), sampleRate: this.rate });
  }

  /** A pause, made once the next sound comes (or the audio ends). */
  pause(seconds: number): void {
    this.pausing += seconds;
  }

  async finish(timings: SpokenTimings): Promise<SpokenAudio> {
    if (!this.encoder) throw new EngineError('engine_failed', 'The engine gave no audio');
    if (this.pausing > 0) await this.write({ samples: new Float32Array(this.pauseSamples()), sampleRate: this.rate });
    const encoder = await this.encoder;
    await encoder.finish();
    return { duration: this.samples / this.rate, sampleRate: encoder.sampleRate, timings };
  }

  abort(): void {
    void this.encoder?.then(
      (encoder) => encoder.abort(),
      () => undefined,
    );
  }

  /** Samples of silence the waiting pause adds to the quiet already written. */
  private pauseSamples(): number {
    return Math.max(0, Math.round(this.pausing * this.rate) - this.quietTail);
  }

  private async write(pcm: Pcm): Promise<void> {
    if (pcm.samples.length === 0) return;
    this.samples += pcm.samples.length;
    const produced = this.samples / this.rate;
    if (produced > this.job.maxSeconds) {
      const error = audioTooLong(this.job.maxSeconds, { produced_seconds: Math.round(produced * 10) / 10 });
      this.stop(error);
      throw error;
    }
    let last = pcm.samples.length - 1;
    while (last >= 0 && Math.abs(pcm.samples[last]!) <= SOUND) last--;
    this.quietTail = last < 0 ? this.quietTail + pcm.samples.length : pcm.samples.length - 1 - last;
    this.envelope.add(pcm);
    await (await this.encoder!).write(pcm);
  }

  private async open(inputRate: number): Promise<StreamingEncoder> {
    const { job } = this;
    const sink = job.stream;
    sink?.start(encodedRate(job.format, job.sampleRate ?? inputRate));
    return openStreamingEncoder({
      format: job.format,
      inputRate,
      sampleRate: job.sampleRate,
      file: this.file,
      ...(sink ? { onChunk: (bytes: Buffer) => sink.write(bytes) } : {}),
    });
  }
}
