import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { jobKind } from '../../platform/jobs/kinds.js';
import { decodeToPcm } from '../../platform/audio/decode.js';
import type { Pcm } from '../../platform/audio/pcm.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import { EngineIdSchema } from '../../platform/engines/engine-id-schema.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { engineAvailable } from '../../platform/engines/inventory.js';
import type { EngineCapabilities, SpeechRegion, Transcript, TranscriptSegment } from '../../platform/engines/types.js';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRunContext } from '../../platform/jobs/types.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { planWindow } from './windows.js';
import { TranscriptCache, type HeardRecording } from './transcript-cache.js';

/** Best first: the neural recognizers when installed, else the built-in one. */
const RECOGNIZERS: readonly EngineId[] = ['whisper', 'moonshine', 'pocketsphinx'];
const RATE = 16_000;

const TimestampsSchema = Type.Enum(['none', 'segment', 'word']);
export type Timestamps = Static<typeof TimestampsSchema>;

const TranscriptionRequestSchema = Type.Object({
  path: Type.String(),
  duration: Type.Number(),
  language: Type.Optional(Type.String()),
  timestamps: TimestampsSchema,
  /** One installed recognizer to use (an engine id); the best installed one for the language when absent. */
  recognizer: Type.Optional(EngineIdSchema),
});
export type TranscriptionRequest = Static<typeof TranscriptionRequestSchema>;

/**
 * A word whose probability is below this is shown as unsure. Picked on PocketSphinx's posteriors of
 * jfk.wav and three Flite sentences (56 words, 11 wrong; docs/capabilities.md#audio-processing):
 * of 0.1, 0.2, 0.3, 0.5 and 0.6, 0.3 marks the largest share of wrong words among those it marks.
 */
export const UNSURE_BELOW = 0.3;

const RecognizedWordSchema = Type.Object({
  word: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  probability: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'How likely the recognizer thinks the word is right, 0–1 (PocketSphinx: its lattice posterior); null when the recognizer gives none',
  }),
});
export const TranscriptionResultSchema = Type.Object({
  text: Type.String(),
  language: Type.String(),
  duration: Type.Number(),
  recognizer: Type.String(),
  segments: Type.Array(Type.Object({ start: Type.Number(), end: Type.Number(), text: Type.String(), words: Type.Array(RecognizedWordSchema) })),
  unsure_below: Type.Number({ minimum: 0, maximum: 1, description: 'Words whose `probability` is below this are ones the recognizer was unsure of' }),
});
export type TranscriptionResult = Static<typeof TranscriptionResultSchema>;

export const TRANSCRIPTION_JOB = jobKind('transcription', TranscriptionRequestSchema);

/**
 * Transcription as a queue job: picks the best installed recognizer for the language, and for long
 * audio decodes window by window; with Silero VAD installed, windows end in pauses and silence is
 * skipped (see planWindow).
 */
export class TranscriptionService {
  private readonly cache: TranscriptCache;

  /**
   * Long audio is decoded and recognized one window of `windowSeconds` at a time, so memory stays
   * flat; the last `cachedTranscripts` transcripts are kept (TranscriptCache).
   */
  constructor(private readonly deps: { engines: EngineClient; queue: JobQueue; modelsDir: string; windowSeconds: number; cachedTranscripts: number }) {
    this.cache = new TranscriptCache(deps.cachedTranscripts);
    deps.queue.register(TRANSCRIPTION_JOB, (payload, context) => this.run(payload, context));
  }

  async transcribe(request: TranscriptionRequest, ownerKeyId: string): Promise<TranscriptionResult> {
    const job = this.deps.queue.submit({ kind: TRANSCRIPTION_JOB, ownerKeyId, payload: request });
    const done = await completedJob(this.deps.queue, job.id);
    if (!Value.Check(TranscriptionResultSchema, done.result)) throw new Error(`Transcription job ${done.id} answered no transcript`);
    return done.result;
  }

  private async run(request: TranscriptionRequest, context: JobRunContext): Promise<TranscriptionResult> {
    const recognizer = await this.chooseRecognizer(request.language, request.recognizer);
    const vad = await this.available('silero-vad');
    const key = { path: request.path, recognizer: recognizer.engine, language: request.language, vad, windowSeconds: this.deps.windowSeconds };
    const { language, segments } = await this.cache.heard(key, context.signal, () => this.hear(request, recognizer, vad, context));
    const shaped = segments.filter((segment) => segment.text.trim()).map((segment) => (request.timestamps === 'word' ? segment : { ...segment, words: [] }));
    return {
      text: shaped.map((segment) => segment.text.trim()).join(' '),
      language,
      duration: request.duration,
      recognizer: recognizer.engine,
      segments: request.timestamps === 'none' ? [] : shaped,
      unsure_below: UNSURE_BELOW,
    };
  }

  /** Recognizes the recording window by window (see planWindow). */
  private async hear(request: TranscriptionRequest, recognizer: EngineCapabilities, vad: boolean, context: JobRunContext): Promise<HeardRecording> {
    const segments: TranscriptSegment[] = [];
    let language = request.language ?? recognizer.languages[0] ?? 'und';
    for (let start = 0; start < request.duration;) {
      const window = await decodeToPcm(request.path, RATE, context.signal, { start, duration: this.deps.windowSeconds });
      const length = window.samples.length / RATE;
      if (length === 0) break;
      const regions = vad ? await this.speechRegions(window, context) : undefined;
      const plan = planWindow(regions, length, start + this.deps.windowSeconds >= request.duration);
      const speech = plan.speech;
      if (speech) {
        const transcript = await this.recognize(recognizer.engine, slice(window, speech), request.language, context);
        if (transcript.language) language = transcript.language;
        const offset = start + speech.start;
        segments.push(...transcript.segments.map((segment) => shift(segment, offset)));
      }
      start += plan.advance;
      context.progress(Math.min(1, start / request.duration), 'recognizing');
    }
    return { language, segments };
  }

  /** The recognizers that can run here, best first (engine ids). */
  async installed(): Promise<EngineId[]> {
    const available = await Promise.all(RECOGNIZERS.map(async (id) => ((await this.available(id)) ? [id] : [])));
    return available.flat();
  }

  private async chooseRecognizer(language: string | undefined, only: EngineId | undefined): Promise<EngineCapabilities> {
    const installed = await installedRecognizers(this.deps.engines, this.deps.modelsDir, only ? [only] : RECOGNIZERS);
    const able = recognizerFor(installed, language);
    if (!able) {
      throw new ApiError(422, 'language_not_supported', `No installed recognizer handles ${language}`, {
        language,
        recognizers: installed.map((capabilities) => ({ engine: capabilities.engine, languages: capabilities.languages })),
      });
    }
    return able;
  }

  private available(id: EngineId): Promise<boolean> {
    return engineAvailable(this.deps.engines, id);
  }

  private speechRegions(pcm: Pcm, context: JobRunContext): Promise<SpeechRegion[]> {
    return this.deps.engines.detect('silero-vad', pcm, { signal: context.signal });
  }

  private recognize(engine: EngineId, pcm: Pcm, language: string | undefined, context: JobRunContext): Promise<Transcript> {
    return this.deps.engines.recognize(engine, { pcm, language }, { signal: context.signal });
  }
}

/** The installed recognizers (of `among`), best first. */
export async function installedRecognizers(engines: EngineClient, modelsDir: string, among: readonly EngineId[] = RECOGNIZERS): Promise<EngineCapabilities[]> {
  const installed: EngineCapabilities[] = [];
  for (const id of among) {
    if (await engineAvailable(engines, id)) installed.push(await engines.capabilities(id));
  }
  return installed;
}

/** The first recognizer that handles the language (any, when the language is to be detected). */
export function recognizerFor(installed: readonly EngineCapabilities[], language: string | undefined): EngineCapabilities | undefined {
  const primary = language?.toLowerCase().split('-')[0];
  return installed.find((capabilities) => !primary || capabilities.languages.some((tag) => tag.toLowerCase().split('-')[0] === primary));
}

function slice(pcm: Pcm, region: SpeechRegion): Pcm {
  return { samples: pcm.samples.subarray(Math.floor(region.start * pcm.sampleRate), Math.ceil(region.end * pcm.sampleRate)), sampleRate: pcm.sampleRate };
}

function shift(segment: TranscriptSegment, offset: number): TranscriptSegment {
  const move = (time: number) => Math.round((time + offset) * 1000) / 1000;
  return {
    ...segment,
    start: move(segment.start),
    end: move(segment.end),
    words: segment.words.map((word) => ({ ...word, start: move(word.start), end: move(word.end) })),
  };
}
