import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CONTENT_TYPES, FILE_EXTENSIONS, type AudioFormat } from '../audio/encode.js';
import type { EngineHost } from '../engines/host/supervisor.js';
import type { EventBus } from './events.js';
import type { SynthesisRequest } from '../engines/types.js';
import { ApiError } from '../errors.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobRecord, JobRunContext } from '../jobs/types.js';
import type { AudioStore } from '../store/audio-store.js';
import type { TaskRecord, TaskRepository } from '../store/task-repository.js';
import { checkTextLength } from '../text/limits.js';
import { normalizeText } from '../text/normalize.js';
import { completedJob } from './job-errors.js';
import { followTaskJobs, submitTaskJob } from './task-status.js';
import { cancelJobs, cancelOwnJobs, type CancelledJob } from './job-cancel.js';
import { renderingOf, type VoiceRendering } from './voice-rendering.js';
import type { VoiceFiles } from '../store/voice-files.js';
import { assertSpeaks, assertUsable, speakToFile, type SpeakingVoice, type VoiceType } from './speech.js';

export type { SpeakingVoice, VoiceType };

export const GENERATION_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'pcm'] as const satisfies readonly AudioFormat[];
export type GenerationFormat = (typeof GENERATION_FORMATS)[number];
export interface GenerateInput {
  voiceId: string;
  text: string;
  language: string;
  speed?: number;
  format?: GenerationFormat;
  sampleRate?: number;
  seed?: number;
}

interface SynthesisPayload {
  taskId: string;
  engine: string;
  request: SynthesisRequest;
  rendering: VoiceRendering;
  format: GenerationFormat;
  sampleRate?: number;
}

export const SYNTHESIS_JOB = 'synthesis';

function newTaskId(): string {
  return `task_${randomBytes(9).toString('base64url')}`;
}

export interface GenerationDeps {
  engines: EngineHost;
  voiceFiles: VoiceFiles;
  queue: JobQueue;
  tasks: TaskRepository;
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
    deps.queue.register(SYNTHESIS_JOB, (payload, context) => this.runSynthesis(payload as SynthesisPayload, context));
    followTaskJobs(deps.events, deps.tasks, deps.audio, [SYNTHESIS_JOB]);
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
      id: newTaskId(), kind: 'generation', ownerKeyId, status: 'queued', voiceId: voice.id, text: input.text, language: input.language,
      format, sampleRate: input.sampleRate ?? null, duration: null, audioPath: null, timings: null, error: null, jobId: null, createdAt: now, updatedAt: now,
    };
    this.deps.tasks.insert(task);
    const request: SynthesisRequest = {
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
        payload: { taskId: task.id, engine: voice.engine, request, rendering: renderingOf(voice), format, sampleRate: input.sampleRate } satisfies SynthesisPayload,
      }),
    );
    this.deps.tasks.update(task.id, { jobId: job.id }, now);
    return { task: { ...task, jobId: job.id }, job };
  }

  /** Waits for a submitted task and returns its audio, or throws the job's error. */
  async finish(taskId: string, jobId: string): Promise<{ task: TaskRecord; audio: Buffer; contentType: string }> {
    await completedJob(this.deps.queue, jobId);
    const task = this.deps.tasks.get(taskId)!;
    return { task, audio: await this.audioOf(task), contentType: CONTENT_TYPES[task.format as AudioFormat] };
  }

  /** A task as its owner sees it; tasks of other keys do not exist for the caller. */
  task(taskId: string, ownerKeyId: string): TaskRecord {
    const task = this.deps.tasks.get(taskId);
    if (!task || task.ownerKeyId !== ownerKeyId) throw new ApiError(404, 'task_not_found', `No task ${taskId}`, { task_id: taskId });
    return task;
  }

  /**
   * Cancels the named task's queued and running jobs (a long-form task may have its first run and
   * regenerations), or every generation of the caller that is queued or running.
   */
  cancel(taskId: string | undefined, ownerKeyId: string): Promise<CancelledJob[]> {
    if (taskId) {
      const task = this.task(taskId, ownerKeyId);
      const jobs = this.deps.queue.active((job) => job.taskId === taskId);
      if (jobs.length === 0) throw new ApiError(409, 'task_not_cancellable', `Task ${taskId} is ${task.status}`, { task_id: taskId, status: task.status });
      return cancelJobs(this.deps.queue, jobs);
    }
    return cancelOwnJobs(this.deps.queue, [SYNTHESIS_JOB], ownerKeyId, undefined, 'generation');
  }

  async audioOf(task: TaskRecord): Promise<Buffer> {
    if (task.status !== 'completed' || !task.audioPath) {
      throw new ApiError(409, 'task_not_ready', `Task ${task.id} has no audio (status ${task.status})`, { task_id: task.id, status: task.status });
    }
    return readFile(this.deps.audio.absolute(task.audioPath));
  }

  private async runSynthesis(payload: SynthesisPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const stored = this.deps.audio.pathFor(`${payload.taskId}.${FILE_EXTENSIONS[payload.format]}`);
    const spoken = await speakToFile(this.deps, { ...payload, stored }, context);
    await this.deps.audio.record(stored, () =>
      this.deps.tasks.update(payload.taskId, { audioPath: stored, duration: spoken.duration, timings: spoken.timings, sampleRate: spoken.sampleRate }, new Date().toISOString()),
    );
    return { task_id: payload.taskId, audio_url: `/api/tasks/${payload.taskId}/audio`, duration: spoken.duration };
  }

}


