import type { AudioFormat } from '../audio/encode.js';
import { encodedRate } from '../audio/encode.js';
import { openStreamingEncoder, type StreamingEncoder } from '../audio/encode-stream.js';
import type { Pcm } from '../audio/pcm.js';
import type { SynthesisRequest } from '../engines/types.js';
import { EngineError } from '../errors.js';
import type { JobRunContext } from '../jobs/types.js';
import type { AudioStore } from '../store/audio-store.js';
import { audioTooLong } from '../text/limits.js';
import { speakAs, type RenderProgress } from './speaking.js';
import type { RenderDeps, SpeechTimings, VoiceRendering } from './voice-rendering.js';
import type { EngineId } from '../engines/engine-ids.js';

/** Milliseconds spent in each stage of speaking, as recorded on tasks and shown by the bench. */
export interface SpeakingStages {
  /** In the engine host, the voice's conversion included; encoding and writing overlap it. */
  engine_ms: number;
  /** Encoding after the engine finished: the encoder's tail, a WAV's sizes, an MP3's or FLAC's length header. */
  encode_ms: number;
  store_ms: number;
}

export interface SpokenFile {
  duration: number;
  sampleRate: number;
  timings: { words: unknown; phonemes: unknown } | null;
  stages: SpeakingStages;
}

export interface SpeakingJob {
  engine: EngineId;
  request: SynthesisRequest;
  rendering?: VoiceRendering;
  format: Exclude<AudioFormat, 'wav-float'>;
  sampleRate?: number;
  stored: string;
  /** Streaming: receives the encoded audio as it is made, sentence by sentence. */
  stream?: AudioSink;
  /** Seconds of audio the synthesis may make (TIMBRE_MAX_AUDIO_SECONDS); past them it stops with 422 `audio_too_long`. */
  maxSeconds: number;
}

export interface AudioSink {
  /** Called once, before the first bytes, with the rate the audio is encoded at. */
  start(sampleRate: number): void;
  write(bytes: Buffer): void;
}

/**
 * Synthesizes in the engine host and encodes each piece into the stored file as it arrives, so
 * that memory stays flat however long the speech: the file is written under a temporary name and
 * renamed into place at the end (a failure or a cancellation removes it). With `stream`, the
 * encoded audio also goes out piece by piece while the engine still speaks. Audio past
 * `maxSeconds` stops the synthesis with 422 `audio_too_long`. Progress from the engine fills
 * `[from, to)` of the job's progress.
 */
export async function speakToFile(
  deps: RenderDeps & { audio: AudioStore },
  job: SpeakingJob,
  context: JobRunContext,
  span: { from: number; to: number; extra?: Record<string, unknown> } = { from: 0, to: 0.9 },
): Promise<SpokenFile> {
  const clock = stageClock();
  const stop = new AbortController();
  const progress: RenderProgress = {
    signal: AbortSignal.any([context.signal, stop.signal]),
    quick: context.quick,
    onProgress: (fraction, stage) => context.progress(span.from + fraction * (span.to - span.from), stage ?? 'synthesizing', span.extra),
  };
  let spoken: Omit<SpokenFile, 'stages'> | undefined;
  await deps.audio.writeWith(job.stored, async (file) => {
    const output = new SpokenOutput(job, file, (reason) => stop.abort(reason));
    try {
      const timings = await speakAs(deps, job.engine, job.request, job.rendering ?? {}, (pcm) => output.add(pcm), progress);
      clock.lap('engine_ms');
      spoken = await output.finish(timings);
      clock.lap('encode_ms');
    } catch (error) {
      output.abort();
      // The bound stops the engine by cancelling its call: the job fails for the bound, not as cancelled.
      throw stop.signal.aborted && !context.signal.aborted ? stop.signal.reason : error;
    }
  });
  clock.lap('store_ms');
  return { ...spoken!, stages: clock.stages };
}

/**
 * The audio as it comes: counted against the bound, then encoded into the file (and the stream).
 * The encoder opens on the first piece, whose rate it takes.
 */
class SpokenOutput {
  private encoder: Promise<StreamingEncoder> | undefined;
  private samples = 0;
  private rate = 0;

  constructor(
    private readonly job: SpeakingJob,
    private readonly file: string,
    private readonly stop: (reason: unknown) => void,
  ) {}

  async add(pcm: Pcm): Promise<void> {
    this.rate = pcm.sampleRate;
    this.samples += pcm.samples.length;
    const produced = this.samples / this.rate;
    if (produced > this.job.maxSeconds) {
      const error = audioTooLong(this.job.maxSeconds, { produced_seconds: Math.round(produced * 10) / 10 });
      this.stop(error);
      throw error;
    }
    this.encoder ??= this.open(pcm.sampleRate);
    await (await this.encoder).write(pcm);
  }

  async finish(timings: SpeechTimings): Promise<Omit<SpokenFile, 'stages'>> {
    if (!this.encoder) throw new EngineError('engine_failed', 'The engine gave no audio');
    const encoder = await this.encoder;
    await encoder.finish();
    return {
      duration: this.samples / this.rate,
      sampleRate: encoder.sampleRate,
      timings: timings.words || timings.phonemes ? { words: timings.words ?? null, phonemes: timings.phonemes ?? null } : null,
    };
  }

  abort(): void {
    void this.encoder?.then(
      (encoder) => encoder.abort(),
      () => undefined,
    );
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
