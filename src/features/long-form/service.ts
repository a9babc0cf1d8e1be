import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { contentTypeOf } from '../../platform/audio/encode.js';
import { ApiError } from '../../platform/errors.js';
import type { ChunkRecord, TakeRecord } from './chunk-repository.js';
import { newTask, type TaskRecord, submitTaskJob } from '../tasks/index.js';
import { checkTextLength } from '../../platform/text/limits.js';
import { normalizeText } from '../../platform/text/normalize.js';
import { isSsml } from '../../platform/speech/markup.js';
import { checkAudioBudget } from '../../platform/speech/speech-budget.js';
import { renderingOf } from '../../platform/speech/voice-rendering.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { LongFormJobs, MERGE_JOB, LONG_FORM_JOB, TAKE_JOB, type MergeRequest } from './jobs.js';
import { nearestPreset, planChunks, type ChunkPlan, type SegmentInput } from './plan.js';
import { presentChunk } from './presentation.js';
import { LongFormStatus } from './status.js';
import { LongFormResume } from './resume.js';
import type { LongFormDeps } from './deps.js';
import { selected } from './chunk-repository.js';

export interface LongFormOptions {
  speed?: number;
  seed?: number;
  maxChars?: number;
  /** Languages automatic detection may choose from (multi-language requests). */
  candidates?: string[];
  /** The caller's project the task is filed in (checked by the route). */
  projectId?: string | null;
  /** Pronunciation dictionaries of the request, before the project's and the voices'. */
  pronunciationIds?: string[];
}

const now = () => new Date().toISOString();

/**
 * Long-form generation: a text becomes one task of sentence chunks, spoken in order by one job
 * with the same voice conditioning and seed for every chunk, so the voice does not drift.
 * Chunks can be retaken (earlier takes are kept) and merged into one file.
 */
export class LongFormService {
  private readonly jobs: LongFormJobs;
  private readonly status: LongFormStatus;
  private readonly resumes: LongFormResume;

  constructor(private readonly deps: LongFormDeps) {
    this.jobs = new LongFormJobs(deps);
    deps.queue.register(LONG_FORM_JOB, (payload, context) => this.jobs.speakPending(payload, context));
    deps.queue.register(TAKE_JOB, (payload, context) => this.jobs.speakTake(payload, context));
    deps.queue.register(MERGE_JOB, (payload, context) => this.jobs.merge(payload, context));
    this.status = new LongFormStatus(deps, [LONG_FORM_JOB.name, TAKE_JOB.name]);
    this.resumes = new LongFormResume(deps, [LONG_FORM_JOB.name, TAKE_JOB.name]);
    deps.taskService.describeKind('long-form', (task) => ({ chunks: this.chunksOf(task).map(presentChunk), renders: deps.taskService.rendersOf(task) }));
  }

  /**
   * After the queue's own recovery (which requeued the speaking jobs a stop cut short): a take
   * still pending or running that no job will speak (its job was refused, or an older version
   * failed it as interrupted) fails as `interrupted`, so no chunk waits forever. Tasks that ran
   * out of space wait for room to resume.
   */
  recover(): void {
    for (const taskId of this.deps.chunks.tasksWithUnfinishedTakes()) {
      if (this.deps.queue.active((job) => job.taskId === taskId).length > 0) continue;
      for (const chunk of this.deps.chunks.listForTask(taskId)) {
        for (const take of chunk.takes.filter((candidate) => candidate.state === 'pending' || candidate.state === 'running')) {
          const error = { code: 'interrupted', message: 'The service stopped before this take was spoken; regenerate it', details: {} };
          this.deps.chunks.updateTakeEventually(taskId, take.index, take.take, { state: 'failed', error });
        }
      }
      this.status.refresh(taskId);
    }
    this.resumes.recover();
  }

  async start(segments: SegmentInput[], options: LongFormOptions, ownerKeyId: string) {
    checkTextLength(segments.map((segment) => segment.text).join('\n'), this.deps.maxTextChars);
    const presets = await this.deps.presets();
    const plans = await planChunks(segments, {
      maxChars: options.maxChars,
      candidates: options.candidates,
      standIn: (voice, language) => nearestPreset(voice, language, presets),
      marked: (text, language) => this.marked(text, language),
    });
    const speech = plans.map((plan) => ({
      request: { text: normalizeText(plan.spoken, plan.language), language: plan.language, speed: options.speed },
      rendering: renderingOf(plan.speaker),
    }));
    checkAudioBudget(speech, this.deps.maxAudioSeconds);
    const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
    const task = this.createTask(segments, plans, ownerKeyId, options.projectId ?? null);
    const createdAt = now();
    this.deps.chunks.insertChunks(
      plans.map((plan, index) => ({
        taskId: task.id,
        index,
        segment: plan.segment,
        start: plan.start,
        end: plan.end,
        paragraphEnd: plan.paragraphEnd,
        speaker: segments[plan.segment]?.speaker ?? null,
      })),
      plans.map((plan, index) => firstTake(task.id, index, plan, seed, createdAt)),
    );
    const job = submitTaskJob(this.deps.tasks, task.id, () =>
      this.deps.queue.submit({
        kind: LONG_FORM_JOB,
        ownerKeyId,
        taskId: task.id,
        payload: { taskId: task.id, speed: options.speed, pronunciationIds: options.pronunciationIds },
      }),
    );
    this.deps.tasks.update(task.id, { jobId: job.id }, now());
    return { task: { ...task, jobId: job.id }, job, chunks: this.deps.chunks.listForTask(task.id) };
  }

  /** A new take of one chunk, optionally with other text, voice or seed; it becomes the selected take. */
  async regenerate(taskId: string, index: number, changes: { text?: string; voiceId?: string; seed?: number }, owner: { keyId: string; task: TaskRecord }) {
    const chunk = this.chunk(owner.task, index);
    const current = selected(chunk);
    const voice = changes.voiceId ? await this.deps.findVoice(changes.voiceId) : undefined;
    const presets = voice ? await this.deps.presets() : [];
    const plan = voice
      ? (
          await planChunks([{ voice, text: changes.text ?? current.text, language: current.language }], {
            standIn: (v, language) => nearestPreset(v, language, presets),
            marked: (text, language) => this.marked(text, language),
          })
        )[0]!
      : undefined;
    const take: TakeRecord = {
      ...current,
      take: this.deps.chunks.nextTakeNumber(taskId, index),
      text: changes.text?.trim() || current.text,
      voiceId: voice?.id ?? current.voiceId,
      route: plan?.route ?? current.route,
      seed: changes.seed ?? current.seed,
      state: 'pending',
      duration: null,
      audioPath: null,
      error: null,
      createdAt: now(),
    };
    this.deps.chunks.insertSelectedTake(take);
    try {
      // A failed task goes on with this chunk: its other failed chunks are spoken again too.
      this.resumes.resume(taskId, index);
      return {
        take,
        job: this.deps.queue.submit({
          kind: TAKE_JOB,
          ownerKeyId: owner.keyId,
          taskId,
          payload: { taskId, index, take: take.take, ...this.resumes.firstAsk(owner.task) },
        }),
      };
    } catch (error) {
      // A take without a job would stay pending, selected, and block merging.
      this.deps.chunks.deleteTake(taskId, index, take.take, chunk.selectedTake);
      throw error;
    }
  }

  selectTake(task: TaskRecord, index: number, take: number): ChunkRecord {
    const chunk = this.chunk(task, index);
    if (!chunk.takes.some((candidate) => candidate.take === take)) {
      throw new ApiError(404, 'take_not_found', `Chunk ${index} has no take ${take}`, { task_id: task.id, index, take });
    }
    this.deps.chunks.selectTake(task.id, index, take);
    return this.chunk(task, index);
  }

  /** Merges the selected takes in order into one file, a render that is also the task's audio; waits for it. */
  async merge(task: TaskRecord, request: Omit<MergeRequest, 'taskId'>, ownerKeyId: string) {
    const chunks = this.chunksOf(task);
    const notReady = chunks.filter((chunk) => selected(chunk).state !== 'completed');
    if (notReady.length > 0) {
      throw new ApiError(409, 'chunks_not_ready', `Chunks ${notReady.map((chunk) => chunk.index).join(', ')} are not ready`, {
        chunks: notReady.map((chunk) => ({ index: chunk.index, state: selected(chunk).state, error: selected(chunk).error })),
      });
    }
    const job = this.deps.queue.submit({ kind: MERGE_JOB, ownerKeyId, taskId: task.id, payload: { ...request, taskId: task.id } satisfies MergeRequest });
    const done = await completedJob(this.deps.queue, job.id);
    const renderId = done.result?.render_id;
    if (typeof renderId !== 'string') throw new Error(`merge job ${job.id} finished without a render`);
    const { render, file } = await this.deps.taskService.renderFile(task, renderId);
    return { render, audio: file, contentType: contentTypeOf(render.format, render.sampleRate) };
  }

  async chunkAudio(task: TaskRecord, index: number, takeNumber?: number): Promise<{ take: TakeRecord; audio: Buffer }> {
    const chunk = this.chunk(task, index);
    const take = takeNumber === undefined ? selected(chunk) : chunk.takes.find((candidate) => candidate.take === takeNumber);
    if (!take) throw new ApiError(404, 'take_not_found', `Chunk ${index} has no take ${takeNumber}`, { task_id: task.id, index, take: takeNumber });
    if (take.state !== 'completed' || !take.audioPath) {
      throw new ApiError(409, 'chunk_not_ready', `Chunk ${index} is ${take.state}`, { task_id: task.id, index, take: take.take, state: take.state });
    }
    return { take, audio: await readFile(this.deps.audio.absolute(take.audioPath)) };
  }

  chunksOf(task: TaskRecord): ChunkRecord[] {
    return this.deps.chunks.listForTask(task.id);
  }

  /** A segment's runs when it is SSML; plain text is split as it is. */
  private marked(text: string, language?: string) {
    return isSsml(text) ? this.deps.markup.read(text, undefined, language) : undefined;
  }

  private chunk(task: TaskRecord, index: number): ChunkRecord {
    const chunk = this.chunksOf(task).find((candidate) => candidate.index === index);
    if (!chunk) throw new ApiError(404, 'chunk_not_found', `Task ${task.id} has no chunk ${index}`, { task_id: task.id, index });
    return chunk;
  }

  /** The task's voice and language are its chunks' when they all share one. */
  private createTask(segments: SegmentInput[], plans: ChunkPlan[], ownerKeyId: string, projectId: string | null): TaskRecord {
    const voices = [...new Set(segments.map((segment) => segment.voice.id))];
    const languages = [...new Set(plans.map((plan) => plan.language))];
    const task = newTask(
      'long-form',
      {
        ownerKeyId,
        projectId,
        voiceId: voices.length === 1 ? voices[0]! : null,
        text: segments.map((segment) => segment.text).join('\n\n'),
        language: languages.length === 1 ? (languages[0] ?? null) : null,
        format: null,
        sampleRate: null,
      },
      now(),
    );
    this.deps.tasks.insert(task);
    return task;
  }
}

function firstTake(taskId: string, index: number, plan: ChunkPlan, seed: number, createdAt: string): TakeRecord {
  return {
    taskId,
    index,
    take: 1,
    text: plan.text,
    voiceId: plan.voice.id,
    language: plan.language,
    route: plan.route,
    seed,
    state: 'pending',
    duration: null,
    audioPath: null,
    error: null,
    createdAt,
  };
}
