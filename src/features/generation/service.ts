import { contentTypeOf, FILE_EXTENSIONS } from '../../platform/audio/encode.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EventBus } from '../../platform/events.js';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import { type TaskRecord, type TaskRepository, type TaskService, followTaskJobs, submitTaskJob } from '../tasks/index.js';
import { checkTextLength } from '../../platform/text/limits.js';
import { normalizeText } from '../../platform/text/normalize.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { cancelJobs, cancelOwnJobs, type CancelledJob } from '../../platform/jobs/job-cancel.js';
import { renderingOf, VoiceRenderingSchema } from '../../platform/speech/voice-rendering.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import {
  assertSpeaks,
  assertUsable,
  GenerationFormatSchema,
  speakToFile,
  SpeechRequestSchema,
  type GenerationFormat,
  type SpeakingVoice,
  type VoiceType,
} from '../../platform/speech/speech.js';
import { jobKind } from '../../platform/jobs/kinds.js';
import { newId } from '../../platform/util/ids.js';

export type { SpeakingVoice, VoiceType };

export interface GenerateInput {
  voiceId: string;
  text: string;
  language: string;
  speed?: number;
  format?: GenerationFormat;
  sampleRate?: number;
  seed?: number;
}

const SynthesisPayloadSchema = Type.Object({
  taskId: Type.String(),
  engine: Type.String(),
  request: SpeechRequestSchema,
  rendering: VoiceRenderingSchema,
  format: GenerationFormatSchema,
  sampleRate: Type.Optional(Type.Integer()),
});
type SynthesisPayload = Static<typeof SynthesisPayloadSchema>;

export const SYNTHESIS_JOB = jobKind('synthesis', SynthesisPayloadSchema);

export interface GenerationDeps {
  engines: EngineClient;
  voiceFiles: VoiceFiles;
  queue: JobQueue;
  tasks: TaskRepository;
  taskService: TaskService;
  audio: AudioStore;
  events: EventBus;
  findVoice(id: string): Promise<SpeakingVoice>;
  maxTextChars: number;
}

/**
 * Text to speech as stored tasks: each request becomes a task and a job on the compute queue;
 * the job synthesizes in the engine host, encodes, and writes the audio file atomically.
 */
export class GenerationService {
  constructor(private readonly deps: GenerationDeps) {
    deps.queue.register(SYNTHESIS_JOB, (payload, context) => this.runSynthesis(payload, context));
    followTaskJobs(deps.events, deps.tasks, deps.audio, [SYNTHESIS_JOB.name]);
  }

  /** Validates and queues; the caller either waits for the task or follows it on /ws. */
  async submit(type: VoiceType, input: GenerateInput, ownerKeyId: string): Promise<{ task: TaskRecord; job: JobRecord }> {
    checkTextLength(input.text, this.deps.maxTextChars);
    const voice = await this.deps.findVoice(input.voiceId);
    assertUsable(voice);
    if (voice.type !== type) {
      throw new ApiError(400, 'voice_type_mismatch', `Voice ${voice.id} is a ${voice.type} voice; use /api/generate/${voice.type}`, {
        voice_id: voice.id,
        voice_type: voice.type,
        route_type: type,
      });
    }
    assertSpeaks(voice, input.language);
    const now = new Date().toISOString();
    const format = input.format ?? 'wav';
    const task: TaskRecord = {
      id: newId('task'),
      kind: 'generation',
      ownerKeyId,
      status: 'queued',
      voiceId: voice.id,
      text: input.text,
      language: input.language,
      format,
      sampleRate: input.sampleRate ?? null,
      duration: null,
      audioPath: null,
      timings: null,
      error: null,
      jobId: null,
      createdAt: now,
      updatedAt: now,
    };
    this.deps.tasks.insert(task);
    const request: Static<typeof SpeechRequestSchema> = {
      text: normalizeText(input.text, input.language),
      voice: voice.engineVoice,
      language: input.language,
      speed: input.speed,
      seed: input.seed,
    };
    const job = submitTaskJob(this.deps.tasks, task.id, () =>
      this.deps.queue.submit({
        kind: SYNTHESIS_JOB,
        ownerKeyId,
        taskId: task.id,
        payload: {
          taskId: task.id,
          engine: voice.engine,
          request,
          rendering: renderingOf(voice),
          format,
          sampleRate: input.sampleRate,
        } satisfies SynthesisPayload,
      }),
    );
    this.deps.tasks.update(task.id, { jobId: job.id }, now);
    return { task: { ...task, jobId: job.id }, job };
  }

  /** Waits for a submitted task and returns its audio, or throws the job's error. */
  async finish(taskId: string, jobId: string): Promise<{ task: TaskRecord; audio: Buffer; contentType: string }> {
    await completedJob(this.deps.queue, jobId);
    const task = this.deps.tasks.get(taskId)!;
    return { task, audio: await this.deps.taskService.audioOf(task), contentType: contentTypeOf(task.format, task.sampleRate) };
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

  private async runSynthesis(payload: SynthesisPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const stored = this.deps.audio.pathFor(`${payload.taskId}.${FILE_EXTENSIONS[payload.format]}`);
    const spoken = await speakToFile(this.deps, { ...payload, stored }, context);
    await this.deps.audio.record(stored, () =>
      this.deps.tasks.update(
        payload.taskId,
        { audioPath: stored, duration: spoken.duration, timings: spoken.timings, sampleRate: spoken.sampleRate },
        new Date().toISOString(),
      ),
    );
    return { task_id: payload.taskId, audio_url: `/api/tasks/${payload.taskId}/audio`, duration: spoken.duration };
  }
}
