import type { Availability, Engine, EngineCapabilities, EngineDescriptor, JobContext, SynthesisResult } from '../types.js';
import { loadSherpa } from './load.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';
import { type EngineKind } from '../../models/catalog.js';

/** Shared plumbing of the sherpa-onnx engines. */

/** Runs a validation and reports it as availability, so probe() never throws for a bad model. */
async function probeWith(validate: () => Promise<unknown>): Promise<Availability> {
  try {
    await validate();
    return { available: true };
  } catch (error) {
    if (error instanceof EngineError) return { available: false, reason: error.message, code: error.code };
    throw error;
  }
}

export function neuralCapabilities(engine: string, kind: EngineCapabilities['kind'], rest: Partial<EngineCapabilities>): EngineCapabilities {
  return {
    engine,
    kind,
    neural: true,
    languages: [],
    wordTimings: false,
    phonemeTimings: false,
    referenceAudio: false,
    blendableVoices: false,
    speed: false,
    ...rest,
  };
}

/**
 * Settles with `work` unless the job is cancelled first, then rejects with the abort reason.
 * Native work cannot be interrupted, so its eventual result is dropped.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Native failures arrive as plain Errors; give them the engine error shape. */
export function engineFailed(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || error instanceof EngineError) return error;
  return new EngineError('engine_failed', error instanceof Error ? error.message : String(error));
}

/** Progress from sherpa's per-chunk TTS callback; returning false asks sherpa to stop early. */
/**
 * Sherpa calls back after each sentence (the models are created with maxNumSentences 1) with that
 * sentence's samples: a streaming caller gets them as pieces.
 */
function ttsProgress(context: JobContext, sampleRate: number): (info: { samples: Float32Array; progress: number }) => boolean {
  return ({ samples, progress }) => {
    if (context.signal.aborted) return false;
    if (context.audio && samples.length > 0) void context.audio({ pcm: { samples: Float32Array.from(samples), sampleRate } });
    context.progress(Math.min(Math.max(progress, 0), 1), 'synthesizing');
    return true;
  };
}

/** Runs tasks one at a time, for native objects that hold per-call state (VAD, recognizer config). */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Lets timers, I/O and abort events run during a long synchronous native loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The same code for empty text as the built-in engines, so clients see one error whatever speaks. */
export function requireText(text: string): void {
  if (text.trim() === '') throw new EngineError('text_empty', 'Nothing to say: the text is empty');
}

/**
 * A neural engine's descriptor: probing validates its files, and loading validates them again
 * before native code sees them, because some bad model files crash the process instead of throwing.
 */
export function neuralEngine<E extends Engine, F>(
  id: string,
  kind: EngineKind,
  validate: () => Promise<F>,
  build: (files: F, sherpa: SherpaModule) => Promise<E>,
): EngineDescriptor<E> {
  return { id, kind, neural: true, probe: () => probeWith(validate), load: async () => build(await validate(), await loadSherpa()) };
}

/**
 * One sherpa generation for a job: stops waiting when the job is aborted, reports progress, and
 * copies the samples out of native memory. `tts` may still be loading (a blended voice).
 */
export async function generate(tts: OfflineTts | Promise<OfflineTts>, text: string, generationConfig: object, context: JobContext): Promise<SynthesisResult> {
  try {
    const model = await untilAborted(Promise.resolve(tts), context.signal);
    const audio = await untilAborted(
      model.generateAsync({ text, generationConfig, onProgress: ttsProgress(context, model.sampleRate), enableExternalBuffer: false }),
      context.signal,
    );
    context.progress(1, 'done');
    return { pcm: { samples: Float32Array.from(audio.samples), sampleRate: audio.sampleRate } };
  } catch (error) {
    throw engineFailed(error, context.signal);
  }
}
