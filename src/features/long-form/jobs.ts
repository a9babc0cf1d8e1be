import { access, readFile } from 'node:fs/promises';
import { Type, type Static } from 'typebox';
import { AudioFormatSchema, encodedRate, encodePcm, FILE_EXTENSIONS } from '../../platform/audio/encode.js';
import { jobKind } from '../../platform/jobs/kinds.js';
import { mergeChunks } from '../../platform/audio/merge.js';
import { durationOf } from '../../platform/audio/pcm.js';
import { parseWav } from '../../platform/audio/wav.js';
import { toJobError } from '../../platform/jobs/records.js';
import type { JobRunContext } from '../../platform/jobs/types.js';
import { isStorageFull } from '../../platform/storage-full.js';
import type { ChunkRecord, TakeChanges, TakeRecord } from './chunk-repository.js';
import { roundTo } from '../../platform/util/round.js';
import { audioTooLong } from '../../platform/text/limits.js';
import { speakToFile } from '../../platform/speech/speech.js';
import { planSpeech } from '../../platform/speech/speech-plan.js';
import { EngineError } from '../../platform/errors.js';
import { type LongFormDeps } from './deps.js';
import { newId } from '../../platform/util/ids.js';
import { mergedTimings } from './merged-timings.js';

/** What every take of a run is spoken with: the request's speed and its own pronunciation dictionaries. */
const TakeAskFields = {
  speed: Type.Optional(Type.Number()),
  pronunciationIds: Type.Optional(Type.Array(Type.String())),
};
export type TakeAsk = { speed?: number; pronunciationIds?: string[] };

const SpeakPendingSchema = Type.Object({
  taskId: Type.String(),
  ...TakeAskFields,
  /** Only these chunks (a resume of the failed ones); absent: every chunk. */
  chunks: Type.Optional(Type.Array(Type.Integer())),
});
const SpeakTakeSchema = Type.Object({ taskId: Type.String(), index: Type.Integer(), take: Type.Integer(), ...TakeAskFields });
const MergeRequestSchema = Type.Object({
  taskId: Type.String(),
  format: AudioFormatSchema,
  pauseMs: Type.Optional(Type.Number()),
  paragraphPauseMs: Type.Optional(Type.Number()),
  crossfadeMs: Type.Optional(Type.Number()),
  normalize: Type.Optional(Type.Boolean()),
});
export type MergeRequest = Static<typeof MergeRequestSchema>;

// Both speaking jobs keep each finished take, so a run cut short by a restart simply runs again.
export const LONG_FORM_JOB = jobKind('long-form', SpeakPendingSchema, { resumable: true });
export const TAKE_JOB = jobKind('chunk-take', SpeakTakeSchema, { resumable: true });
export const MERGE_JOB = jobKind('merge', MergeRequestSchema);

const PREFIX = 'preset:';
/** Chunks handed to the engines beyond those they can run at once: one keeps them busy while another is stored, more only queue. */
const CHUNKS_AHEAD = 1;
/** A chunk whose engine host crashed under it is spoken again this many times (on the restarted host) before it fails. */
const CRASH_RETRIES = 1;

function selectedTake(chunk: ChunkRecord): TakeRecord {
  return chunk.takes.find((take) => take.take === chunk.selectedTake)!;
}

/** The runners of long-form jobs: speak the chunks in order, speak one take, merge. */
export class LongFormJobs {
  constructor(private readonly deps: LongFormDeps) {}

  /**
   * Speaks, in order, every chunk whose selected take has no audio yet: all of them on the first
   * run, after a restart those the stop cut short (finished takes keep their files), and in a
   * resume the failed ones it names (`chunks`). As many chunks are with the engines as they can
   * run at once (one here, the free slots with workers), plus one (CHUNKS_AHEAD) so an engine never
   * waits while a chunk is encoded and stored. A chunk
   * whose engine host crashed is spoken once more (CRASH_RETRIES); one that fails is recorded and
   * the others still speak; the job then fails naming the failed chunks. When the job ends early
   * (cancelled, disk full) the takes it did not reach end with it, so no take stays pending with
   * nothing left to speak it.
   */
  async speakPending(payload: Static<typeof SpeakPendingSchema>, context: JobRunContext): Promise<Record<string, unknown>> {
    const chunks = this.deps.chunks.listForTask(payload.taskId);
    const failed: number[] = [];
    let duration = 0;
    let stopped: { error: unknown } | undefined;
    const inFlight = new Set<Promise<void>>();
    for (const [position, chunk] of chunks.entries()) {
      const take = selectedTake(chunk);
      if (await this.hasAudio(take)) {
        duration += take.duration ?? 0;
        continue;
      }
      if (payload.chunks && !payload.chunks.includes(chunk.index)) continue;
      const span = { from: position / chunks.length, to: (position + 1) / chunks.length, extra: { chunk_index: chunk.index } };
      // Settled here, never rejected: a rejection waiting behind another chunk would go unhandled.
      const spoken: Promise<void> = this.speak(take, payload, context, span)
        .then(
          (seconds) => (seconds === undefined ? void failed.push(chunk.index) : void (duration += seconds)),
          (error: unknown) => void (stopped ??= { error }),
        )
        .finally(() => inFlight.delete(spoken));
      inFlight.add(spoken);
      while (inFlight.size > this.deps.engines.parallelCalls() - 1 + CHUNKS_AHEAD) await Promise.race(inFlight);
      // The task as a whole is bounded like one request: past the bound, no more chunks are spoken.
      if (duration > this.deps.maxAudioSeconds) stopped ??= { error: audioTooLong(this.deps.maxAudioSeconds, { produced_seconds: roundTo(duration, 1) }) };
      if (stopped) break;
    }
    await Promise.all([...inFlight]);
    if (stopped) {
      // Read again: the list above says what each take was before this run spoke it.
      this.endUnreached(
        this.deps.chunks.listForTask(payload.taskId),
        context.signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: toJobError(stopped.error) },
      );
      throw stopped.error;
    }
    if (failed.length > 0)
      throw new EngineError('chunks_failed', `Chunks ${failed.sort((a, b) => a - b).join(', ')} failed; regenerate them`, { chunks: failed });
    // One file exists only once the chunks are merged (merge-chunks); until then each chunk has its own.
    return { task_id: payload.taskId, chunks: chunks.length, duration: roundTo(duration, 3), audio_url: null };
  }

  /** Speaks one take; a take that already has its audio (spoken before a restart) is not spoken again. */
  async speakTake(payload: Static<typeof SpeakTakeSchema>, context: JobRunContext): Promise<Record<string, unknown>> {
    const take = this.deps.chunks
      .listForTask(payload.taskId)
      .find((candidate) => candidate.index === payload.index)
      ?.takes.find((candidate) => candidate.take === payload.take);
    if (!take)
      throw new EngineError('take_not_found', `Chunk ${payload.index} of ${payload.taskId} has no take ${payload.take} any more`, {
        index: payload.index,
        take: payload.take,
      });
    const duration = (await this.hasAudio(take))
      ? take.duration
      : await this.speak(take, payload, context, { from: 0, to: 1, extra: { chunk_index: payload.index } });
    if (duration === undefined || duration === null)
      throw new EngineError('chunk_failed', `Chunk ${payload.index} failed`, { index: payload.index, error: this.takeError(payload) });
    return { task_id: payload.taskId, chunk_index: payload.index, take: payload.take, audio_url: chunkUrl(payload.taskId, payload.index), duration };
  }

  /**
   * Joins the selected takes with pauses (and loudness normalisation) into a merge render, which
   * is also the task's audio; it replaces only the earlier merge of the same format.
   */
  async merge(request: MergeRequest, context: JobRunContext): Promise<Record<string, unknown>> {
    const chunks = this.deps.chunks.listForTask(request.taskId);
    const pieces: { pcm: ReturnType<typeof parseWav>; paragraphEnd: boolean; chunk: number; text: string; speaker: string | null; timings: unknown }[] = [];
    for (const chunk of chunks) {
      const take = selectedTake(chunk);
      const pcm = parseWav(await readFile(this.deps.audio.absolute(take.audioPath!)));
      pieces.push({ pcm, paragraphEnd: chunk.paragraphEnd, chunk: chunk.index, text: take.text, speaker: chunk.speaker, timings: take.timings });
    }
    context.progress(0.2, 'merging');
    const merged = await mergeChunks(pieces, { ...request, signal: context.signal });
    context.progress(0.8, 'encoding');
    const audio = await encodePcm(merged.pcm, request.format, { signal: context.signal });
    const renderId = newId('render');
    const stored = this.deps.audio.pathFor(`${request.taskId}_merged_${renderId}.${FILE_EXTENSIONS[request.format]}`);
    await this.deps.audio.write(stored, audio);
    const duration = durationOf(merged.pcm);
    const sampleRate = encodedRate(request.format, merged.pcm.sampleRate);
    const timings = mergedTimings(merged.placements, pieces);
    const render = { id: renderId, taskId: request.taskId, kind: 'merge' as const, format: request.format, sampleRate, duration, path: stored };
    await this.deps.taskService.recordRender({ ...render, timings }, () =>
      this.deps.tasks.update(request.taskId, { audioPath: stored, duration, format: request.format, sampleRate, timings }, new Date().toISOString()),
    );
    return { task_id: request.taskId, render_id: renderId, audio_url: `/api/tasks/${request.taskId}/audio`, duration };
  }

  /**
   * What a take says, as a plan: its text (SSML when its root is `<speak>`) with the dictionaries
   * of the run, the task's project and the voice, spoken by its speaker (a stand-in for a language
   * the voice cannot speak).
   */
  private async planTake(take: TakeRecord, asked: TakeAsk) {
    const task = this.deps.tasks.get(take.taskId);
    const voice = await this.deps.findVoice(take.route.startsWith(PREFIX) ? take.route.slice(PREFIX.length) : take.voiceId);
    const runs = this.deps.markup.read(take.text, undefined, take.language);
    const markup = { text: take.text, pronunciationIds: asked.pronunciationIds, projectId: task?.projectId, voiceId: take.voiceId };
    const pronounced = this.deps.markup.pronounced(runs, take.language, markup, task?.ownerKeyId ?? '');
    const base = { voice, language: take.language, speed: asked.speed, seed: take.seed ?? undefined };
    return planSpeech(pronounced, base, (id) => this.deps.findVoice(id));
  }

  /**
   * Speaks one take into its own file: its duration, or undefined when it failed (recorded on the
   * take). A full disk throws instead: every later chunk would fail alike, so the job fails as a whole.
   */
  private async speak(
    take: TakeRecord,
    asked: TakeAsk,
    context: JobRunContext,
    span: { from: number; to: number; extra: Record<string, unknown> },
  ): Promise<number | undefined> {
    const { taskId, index } = take;
    const stored = this.deps.audio.pathFor(`${taskId}_${index}_${take.take}.wav`);
    try {
      this.deps.chunks.updateTake(taskId, index, take.take, { state: 'running' });
      const plan = await this.planTake(take, asked);
      const spoken = await retryingCrashes(
        () => speakToFile(this.deps, { plan, format: 'wav', stored, maxSeconds: this.deps.maxAudioSeconds }, context, span),
        context.signal,
      );
      await this.deps.audio.record(stored, () =>
        this.deps.chunks.updateTake(taskId, index, take.take, {
          state: 'completed',
          duration: spoken.duration,
          audioPath: stored,
          timings: { words: spoken.timings.words, word_source: spoken.timings.word_source },
        }),
      );
      context.progress(span.to, 'chunk_completed', { ...span.extra, audio_url: chunkUrl(taskId, index), duration: spoken.duration });
      return spoken.duration;
    } catch (error) {
      // Written eventually: the take has ended whether or not the disk has room to record it.
      if (context.signal.aborted) {
        this.deps.chunks.updateTakeEventually(taskId, index, take.take, { state: 'cancelled' });
        throw error;
      }
      this.deps.chunks.updateTakeEventually(taskId, index, take.take, { state: 'failed', error: toJobError(error) });
      if (isStorageFull(error)) throw error;
      return undefined;
    }
  }

  private async hasAudio(take: TakeRecord): Promise<boolean> {
    if (take.state !== 'completed' || !take.audioPath) return false;
    return access(this.deps.audio.absolute(take.audioPath)).then(
      () => true,
      () => false,
    );
  }

  /** Ends the selected takes a stopped job will not speak: `cancelled` with it, or `failed` with its error. */
  private endUnreached(chunks: readonly ChunkRecord[], changes: TakeChanges): void {
    for (const take of chunks.map(selectedTake)) {
      if (take.state === 'pending' || take.state === 'running') this.deps.chunks.updateTakeEventually(take.taskId, take.index, take.take, changes);
    }
  }

  private takeError(payload: { taskId: string; index: number; take: number }) {
    const chunk = this.deps.chunks.listForTask(payload.taskId).find((candidate) => candidate.index === payload.index);
    return chunk?.takes.find((take) => take.take === payload.take)?.error ?? null;
  }
}

/** Runs `speak` again when the engine host crashed under it (it is restarted for the next call), up to CRASH_RETRIES times. */
async function retryingCrashes<T>(speak: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await speak();
    } catch (error) {
      const crashed = error instanceof EngineError && error.code === 'engine_crashed';
      if (!crashed || attempt >= CRASH_RETRIES || signal.aborted) throw error;
    }
  }
}

export function chunkUrl(taskId: string, index: number): string {
  return `/api/audio/chunk/${taskId}/${index}`;
}
