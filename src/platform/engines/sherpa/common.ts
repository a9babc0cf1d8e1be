import type { Availability, Engine, EngineCapabilities, EngineDescriptor, JobContext, SynthesisRequest, SynthesisResult } from '../types.js';
import { concatPcm, type Pcm } from '../../audio/pcm.js';
import { breakAbbreviationChains, hasSpeakableText, sentencePieces } from '../builtin-text.js';
import { loadSherpa } from './load.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError, errorText } from '../../errors.js';
import { type EngineKind } from '../../models/catalog.js';
import type { NeuralEngineId } from '../engine-ids.js';

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

export function neuralCapabilities(engine: NeuralEngineId, kind: EngineCapabilities['kind'], rest: Partial<EngineCapabilities>): EngineCapabilities {
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
  return new EngineError('engine_failed', errorText(error));
}

/**
 * Sherpa calls back after each sentence (the models are created with maxNumSentences 1) with that
 * sentence's samples: a streaming caller gets them as pieces. `done` and `count` place the
 * generation's own progress among the request's pieces; returning false asks sherpa to stop early.
 */
function ttsProgress(context: JobContext, sampleRate: number, done: number, count: number): (info: { samples: Float32Array; progress: number }) => boolean {
  return ({ samples, progress }) => {
    if (context.signal.aborted) return false;
    if (context.audio && samples.length > 0) void context.audio({ pcm: { samples: Float32Array.from(samples), sampleRate } });
    context.progress((done + Math.min(Math.max(progress, 0), 1)) / count, 'synthesizing');
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

/** The same code for text without a letter or digit as the built-in engines, so clients see one error whatever speaks. */
export function requireText(text: string): void {
  if (!hasSpeakableText(text)) throw new EngineError('text_empty', 'Nothing to say: the text has no letter or digit');
}

/**
 * Longest text, in UTF-8 bytes, one sherpa generation is given: Kokoro crashed the process
 * (SIGSEGV) on 15 KB at once (`hello `×3000, `a`×20000) and spoke 10 KB whole.
 */
export const GENERATION_BYTES = 2000;

/**
 * The text as sherpa is given it, in generations of whole sentences of at most GENERATION_BYTES
 * (a longer sentence is cut at spaces): chains of dotted letters are broken first, because the
 * eSpeak NG inside sherpa overflows a buffer on them as the program does (`a.b.c.…` crashed the
 * process under Kokoro, Kitten and Piper alike).
 */
export function generationTexts(text: string): string[] {
  const texts: string[] = [];
  for (const sentence of sentencePieces(breakAbbreviationChains(text), GENERATION_BYTES)) {
    const last = texts.length - 1;
    if (last >= 0 && Buffer.byteLength(texts[last]! + sentence) <= GENERATION_BYTES) texts[last] += sentence;
    else texts.push(sentence);
  }
  return texts;
}

/** sherpa-onnx-node rejects a generation that made no samples (nothing it could phonemize) with this message. */
const NO_AUDIO = /produced no audio/;

/**
 * A neural engine's descriptor: probing validates its files, and loading validates them again
 * before native code sees them, because some bad model files crash the process instead of throwing.
 */
export function neuralEngine<E extends Engine, F>(
  id: NeuralEngineId,
  kind: EngineKind,
  validate: () => Promise<F>,
  build: (files: F, sherpa: SherpaModule) => Promise<E>,
): EngineDescriptor<E> {
  return { id, kind, neural: true, probe: () => probeWith(validate), load: async () => build(await validate(), await loadSherpa()) };
}

/**
 * A request's sherpa generations (see generationTexts), one after another: stops waiting when the
 * job is aborted, reports progress, and copies the samples out of native memory. A generation with
 * nothing sherpa could say (kanji a lexicon lacks) is left out; a request with nothing at all is
 * 422 `text_not_speakable`. `tts` may still be loading (a blended voice).
 */
export async function generate(
  tts: OfflineTts | Promise<OfflineTts>,
  request: Pick<SynthesisRequest, 'text' | 'voice' | 'language'>,
  generationConfig: object,
  context: JobContext,
): Promise<SynthesisResult> {
  const texts = generationTexts(request.text);
  const spoken: Pcm[] = [];
  try {
    const model = await untilAborted(Promise.resolve(tts), context.signal);
    for (const [index, text] of texts.entries()) {
      const onProgress = ttsProgress(context, model.sampleRate, index, texts.length);
      const generation = model.generateAsync({ text, generationConfig, onProgress, enableExternalBuffer: false });
      const audio = await untilAborted(generation, context.signal).catch((error: unknown) => {
        if (error instanceof Error && NO_AUDIO.test(error.message) && !context.signal.aborted) return undefined;
        throw error;
      });
      if (audio && audio.samples.length > 0) spoken.push({ samples: Float32Array.from(audio.samples), sampleRate: audio.sampleRate });
    }
    context.progress(1, 'done');
    if (spoken.length === 0) {
      const details = { voice: request.voice, language: request.language ?? null };
      throw new EngineError('text_not_speakable', `The voice ${request.voice} finds nothing it can say in this text`, details);
    }
    return { pcm: spoken.length === 1 ? spoken[0]! : concatPcm(spoken, spoken[0]!.sampleRate) };
  } catch (error) {
    throw engineFailed(error, context.signal);
  }
}
