import type { JobRunContext } from '../jobs/types.js';
import type { AudioStore } from '../store/audio-store.js';
import { speakAs, type RenderProgress } from './speaking.js';
import type { RenderDeps } from './voice-rendering.js';
import { planSeconds, type PlannedSpeech, type SpeechPlan } from './speech-plan.js';
import type { EngineCapabilities } from '../engines/types.js';
import { RunAudio } from './run-audio.js';
import { PlanTimings } from './plan-timings.js';
import { SpokenOutput, type AudioSink, type OutputOptions, type SpokenAudio } from './spoken-output.js';

/** Milliseconds spent in each stage of speaking, as recorded on tasks and shown by the bench. */
export interface SpeakingStages {
  /** In the engine host, the voice's conversion included; encoding and writing overlap it. */
  engine_ms: number;
  /** Encoding after the engine finished: the encoder's tail, a WAV's sizes, an MP3's or FLAC's length header. */
  encode_ms: number;
  store_ms: number;
}

export interface SpokenFile extends SpokenAudio {
  stages: SpeakingStages;
}

export interface SpeakingJob extends OutputOptions {
  /** The runs of speech and the pauses, in order (speech-plan.ts). */
  plan: SpeechPlan;
  stored: string;
}

export type { AudioSink };

/**
 * Synthesizes in the engine host and encodes each piece into the stored file as it arrives, so
 * that memory stays flat however long the speech: the file is written under a temporary name and
 * renamed into place at the end (a failure or a cancellation removes it). The plan's runs are
 * spoken one after another, each by its engine with what its engine does not do done to its audio
 * (run-audio.ts), its pauses written as silence. With `stream`, the encoded audio also goes out
 * piece by piece while the engine still speaks. Audio past `maxSeconds` stops the synthesis with
 * 422 `audio_too_long`. Progress from the engines fills `[from, to)` of the job's progress.
 * Word times come from the engines, or are estimated from the audio where an engine gives none.
 */
export async function speakToFile(
  deps: RenderDeps & { audio: AudioStore },
  job: SpeakingJob,
  context: JobRunContext,
  span: { from: number; to: number; extra?: Record<string, unknown> } = { from: 0, to: 0.9 },
): Promise<SpokenFile> {
  const clock = stageClock();
  const stop = new AbortController();
  const signal = AbortSignal.any([context.signal, stop.signal]);
  const total = planSeconds(job.plan) || 1;
  let done = 0;
  const progressOf = (seconds: number): RenderProgress => {
    const from = done;
    done += seconds;
    const onProgress = (fraction: number, stage?: string) =>
      context.progress(span.from + ((from + fraction * seconds) / total) * (span.to - span.from), stage ?? 'synthesizing', span.extra);
    return { signal, quick: context.quick, onProgress };
  };
  // Asked once per engine, and only of a run that asks a rate or pitch: a plain run is spoken as the request says.
  const known = new Map<string, Promise<EngineCapabilities>>();
  const capabilities = (item: PlannedSpeech): Promise<EngineCapabilities | undefined> => {
    if (item.pitch === 1 && (item.request.speed ?? 1) === 1) return Promise.resolve(undefined);
    const asked = known.get(item.engine) ?? deps.engines.capabilities(item.engine, { signal });
    known.set(item.engine, asked);
    return asked;
  };
  let spoken: Omit<SpokenFile, 'stages'> | undefined;
  await deps.audio.writeWith(job.stored, async (file) => {
    const output = new SpokenOutput(job, file, (reason) => stop.abort(reason), signal);
    const timings = new PlanTimings();
    try {
      for (const item of job.plan) {
        if (item.kind === 'break') {
          done += item.seconds;
          output.pause(item.seconds);
          continue;
        }
        const run = new RunAudio(item, await capabilities(item), signal);
        output.beginRun();
        const spokenRun = await speakAs(
          deps,
          item.engine,
          run.request,
          item.rendering,
          async (pcm) => output.add(await run.piece(pcm)),
          progressOf(planSeconds([item])),
        );
        timings.add(item.request, run.timings(spokenRun), output.runSpan(), output.envelope);
      }
      clock.lap('engine_ms');
      spoken = await output.finish(timings.joined());
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
