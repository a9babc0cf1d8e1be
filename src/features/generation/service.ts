import { contentTypeOf, FILE_EXTENSIONS } from '../../platform/audio/encode.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EventBus } from '../../platform/events.js';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import { type TaskRecord, type TaskRepository, type TaskService, followTaskJobs, newTask, submitTaskJob } from '../tasks/index.js';
import { checkTextLength } from '../../platform/text/limits.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { cancelJobs, cancelOwnJobs, type CancelledJob } from '../../platform/jobs/job-cancel.js';
import { QUICK_SPEECH_SECONDS } from '../../platform/speech/speech-budget.js';
import { checkPlanBudget, planSpeech, SpeechPlanSchema } from '../../platform/speech/speech-plan.js';
import type { MarkupRequest, SpeechMarkup } from '../../platform/speech/markup.js';
import { spokenText } from '../../platform/text/ssml/segments.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import {
  assertUsable,
  GenerationFormatSchema,
  speakingLanguage,
  speakToFile,
  type GenerationFormat,
  type AudioSink,
  type SpeakingVoice,
  type VoiceType,
} from '../../platform/speech/speech.js';
import { jobKind } from '../../platform/jobs/kinds.js';

export type { SpeakingVoice, VoiceType };

export interface GenerateInput extends MarkupRequest {
  voiceId: string;
  /** BCP 47; the voice's own language when absent (see `speakingLanguage`). */
  language?: string;
  /** 0.25 to 4; engines speak 0.5 to 2 and the rest is stretched afterwards. */
  speed?: number;
  /** Pitch factor for engines that shift pitch natively (1 is the voice's own). */
  pitch?: number;
  format?: GenerationFormat;
  sampleRate?: number;
  seed?: number;
}

const SynthesisPayloadSchema = Type.Object({
  taskId: Type.String(),
  plan: SpeechPlanSchema,
  format: GenerationFormatSchema,
  sampleRate: Type.Optional(Type.Integer()),
  /** Milliseconds the request spent preparing the text, recorded with the other stages. */
  textMs: Type.Optional(Type.Number()),
  /** Seconds of audio the text is expected to make (speech-budget.ts): a short one is a quick job. */
  expectedSeconds: Type.Optional(Type.Number()),
});
type SynthesisPayload = Static<typeof SynthesisPayloadSchema>;

export const SYNTHESIS_JOB = jobKind('synthesis', SynthesisPayloadSchema, {
  quick: (payload) => payload.expectedSeconds !== undefined && payload.expectedSeconds <= QUICK_SPEECH_SECONDS,
});

/** The audio of a synthesis a request is streaming: the runner writes it, the request reads it. */
class LiveAudio implements AudioSink {
  readonly bytes = new PassThrough();
  sampleRate?: number;

  start(sampleRate: number): void {
    this.sampleRate = sampleRate;
  }

  write(bytes: Buffer): void {
    this.bytes.write(bytes);
  }
}

/** A request of this process streaming its synthesis as it is made. */
interface Waiter {
  live: LiveAudio;
}

export interface StreamedSpeech {
  task: TaskRecord;
  job: JobRecord;
  /** The encoded audio as it is made; ends once the task's file is stored. */
  audio: AsyncIterable<Buffer>;
  /** The content type, with the rate of raw PCM; final once the first chunk has been read. */
  contentType: () => string;
}

export interface GenerationDeps {
  engines: EngineClient;
  voiceFiles: VoiceFiles;
  queue: JobQueue;
  tasks: TaskRepository;
  taskService: TaskService;
  audio: AudioStore;
  events: EventBus;
  findVoice(id: string): Promise<SpeakingVoice>;
  markup: SpeechMarkup;
  maxTextChars: number;
  /** Seconds of audio one request may make (TIMBRE_MAX_AUDIO_SECONDS). */
  maxAudioSeconds: number;
}

/**
 * Text to speech as stored tasks: each request becomes a task and a job on the compute queue;
 * the job synthesizes in the engine host, encodes, and writes the audio file atomically.
 */
export class GenerationService {
  /** Requests waiting on their syntheses, by task; the runner streams and hands the audio there. */
  private readonly waiting = new Map<string, Waiter>();

  constructor(private readonly deps: GenerationDeps) {
    deps.queue.register(SYNTHESIS_JOB, (payload, context, job) => this.runSynthesis(payload, context, job));
    followTaskJobs(deps.events, deps.tasks, deps.audio, [SYNTHESIS_JOB.name]);
  }

  /** What one request may ask for, for clients to show before sending (TIMBRE_MAX_TEXT_CHARS, TIMBRE_MAX_AUDIO_SECONDS). */
  limits(): { max_text_chars: number; max_audio_seconds: number } {
    return { max_text_chars: this.deps.maxTextChars, max_audio_seconds: this.deps.maxAudioSeconds };
  }

  /**
   * Validates and queues; the caller either waits for the task or follows it on /ws. `type`
   * undefined takes a voice of any type.
   */
  async submit(type: VoiceType | undefined, input: GenerateInput, ownerKeyId: string, waiter?: Waiter): Promise<{ task: TaskRecord; job: JobRecord }> {
    const started = performance.now();
    checkTextLength(input.text, this.deps.maxTextChars);
    const voice = await this.usableVoice(type, input);
    // Read again only when the language was found from the words: say-as reads numbers and dates in it.
    const stated = this.deps.markup.read(input.text, input.textType, input.language);
    const language = await speakingLanguage(voice, spokenText(stated), input.language);
    const runs = language === input.language ? stated : this.deps.markup.read(input.text, input.textType, language);
    const format = input.format ?? 'wav';
    const task = newTask('generation', {
      ownerKeyId,
      projectId: input.projectId,
      voiceId: voice.id,
      text: input.text,
      language,
      format,
      sampleRate: input.sampleRate ?? null,
    });
    const now = task.createdAt;
    const pronounced = this.deps.markup.pronounced(runs, language, { ...input, voiceId: voice.id }, ownerKeyId);
    const plan = await planSpeech(pronounced, { voice, language, speed: input.speed, pitch: input.pitch, seed: input.seed }, (id) => this.deps.findVoice(id));
    const expectedSeconds = checkPlanBudget(plan, this.deps.maxAudioSeconds);
    this.deps.tasks.insert(task);
    const textMs = Math.round((performance.now() - started) * 10) / 10;
    if (waiter) this.waiting.set(task.id, waiter);
    const job = submitTaskJob(this.deps.tasks, task.id, () =>
      this.deps.queue.submit({
        kind: SYNTHESIS_JOB,
        ownerKeyId,
        taskId: task.id,
        payload: {
          taskId: task.id,
          plan,
          format,
          sampleRate: input.sampleRate,
          textMs,
          expectedSeconds,
        } satisfies SynthesisPayload,
      }),
    );
    this.deps.tasks.update(task.id, { jobId: job.id }, now);
    return { task: { ...task, jobId: job.id }, job };
  }

  private async usableVoice(type: VoiceType | undefined, input: GenerateInput): Promise<SpeakingVoice> {
    const voice = await this.deps.findVoice(input.voiceId);
    assertUsable(voice);
    if (type && voice.type !== type) {
      throw new ApiError(400, 'voice_type_mismatch', `Voice ${voice.id} is a ${voice.type} voice; use /api/generate/${voice.type}`, {
        voice_id: voice.id,
        voice_type: voice.type,
        route_type: type,
      });
    }
    return voice;
  }

  /**
   * Submits like `submit` and answers the audio as it is synthesized, sentence by sentence, in the
   * requested format; the task's complete file is stored before the stream ends. A job failure
   * ends the stream with the job's error (before the first chunk: at the first read). Leaving the
   * stream early (a client that disconnected) cancels the synthesis.
   */
  async stream(type: VoiceType | undefined, input: GenerateInput, ownerKeyId: string, signal?: AbortSignal): Promise<StreamedSpeech> {
    const live = new LiveAudio();
    const { task, job } = await this.submitWaiting(type, input, ownerKeyId, { live });
    void completedJob(this.deps.queue, job.id)
      .finally(() => this.waiting.delete(task.id))
      .then(
        () => live.bytes.end(),
        (error: unknown) => live.bytes.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    if (signal?.aborted) this.stop(job.id);
    else signal?.addEventListener('abort', () => this.stop(job.id), { once: true });
    const contentType = () => contentTypeOf(task.format, live.sampleRate ?? null);
    return { task, job, audio: this.followLive(live, job.id), contentType };
  }

  private async *followLive(live: LiveAudio, jobId: string): AsyncGenerator<Buffer> {
    let finished = false;
    try {
      for await (const chunk of live.bytes) yield chunk as Buffer;
      finished = true;
    } finally {
      if (!finished) this.stop(jobId);
    }
  }

  /** Cancels a job if it is still queued or running. */
  private stop(jobId: string): void {
    if (this.deps.queue.active((job) => job.id === jobId).length > 0) this.deps.queue.cancel(jobId);
  }

  /**
   * Submits like `submit` and waits for the task: its stored audio, read from the file as it is
   * sent (however long, it is never held whole), or the job's error.
   */
  async speak(
    type: VoiceType | undefined,
    input: GenerateInput,
    ownerKeyId: string,
  ): Promise<{ task: TaskRecord; audio: Readable; size: number; contentType: string }> {
    const { task, job } = await this.submit(type, input, ownerKeyId);
    await completedJob(this.deps.queue, job.id);
    const done = this.deps.tasks.get(task.id)!;
    const file = this.deps.audio.absolute(done.audioPath!);
    const { size } = await stat(file);
    return { task: done, audio: createReadStream(file), size, contentType: contentTypeOf(done.format, done.sampleRate) };
  }

  /** Submits with a waiter; a submission refused after the waiter was registered leaves none behind. */
  private async submitWaiting(type: VoiceType | undefined, input: GenerateInput, ownerKeyId: string, waiter: Waiter) {
    try {
      return await this.submit(type, input, ownerKeyId, waiter);
    } catch (error) {
      this.waiting.forEach((registered, taskId) => registered === waiter && this.waiting.delete(taskId));
      throw error;
    }
  }

  /**
   * Cancels the named task's queued and running jobs (a long-form task may have its first run and
   * regenerations), or every generation of the caller that is queued or running.
   */
  async cancel(taskId: string | undefined, ownerKeyId: string): Promise<CancelledJob[]> {
    if (taskId) {
      const task = this.deps.taskService.owned(taskId, ownerKeyId);
      const jobs = this.deps.queue.active((job) => job.taskId === taskId);
      if (jobs.length === 0) throw new ApiError(409, 'task_not_cancellable', `Task ${taskId} is ${task.status}`, { task_id: taskId, status: task.status });
      return cancelJobs(this.deps.queue, jobs);
    }
    return cancelOwnJobs(this.deps.queue, [SYNTHESIS_JOB.name], ownerKeyId, undefined, 'generation');
  }

  private async runSynthesis(payload: SynthesisPayload, context: JobRunContext, job: JobRecord): Promise<Record<string, unknown>> {
    const stored = this.deps.audio.pathFor(`${payload.taskId}.${FILE_EXTENSIONS[payload.format]}`);
    const waiter = this.waiting.get(payload.taskId);
    this.waiting.delete(payload.taskId);
    const spoken = await speakToFile(this.deps, { ...payload, stored, stream: waiter?.live, maxSeconds: this.deps.maxAudioSeconds }, context);
    const queueMs = job.startedAt ? Date.parse(job.startedAt) - Date.parse(job.createdAt) : 0;
    const stages = { queue_ms: queueMs, text_ms: payload.textMs ?? 0, ...spoken.stages };
    await this.deps.audio.record(stored, () =>
      this.deps.tasks.update(
        payload.taskId,
        { audioPath: stored, duration: spoken.duration, timings: spoken.timings, sampleRate: spoken.sampleRate, stages },
        new Date().toISOString(),
      ),
    );
    return { task_id: payload.taskId, audio_url: `/api/tasks/${payload.taskId}/audio`, duration: spoken.duration };
  }
}
