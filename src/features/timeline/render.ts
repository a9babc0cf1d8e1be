import { rm } from 'node:fs/promises';
import { Type, type Static } from 'typebox';
import { AudioFormatSchema, FILE_EXTENSIONS, encodedRate, type AudioFormat } from '../../platform/audio/encode.js';
import { jobKind } from '../../platform/jobs/kinds.js';
import { renderAudio, renderVideo } from './mix.js';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRunContext } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { TaskRecord, TaskRepository, TaskService } from '../tasks/index.js';
import type { TimelineService } from './service.js';
import type { JobRecord } from '../../platform/jobs/types.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { MixInputSchema, PictureInputSchema } from './types.js';

export const RenderPlanSchema = Type.Object({
  duration: Type.Number(),
  inputs: Type.Array(MixInputSchema),
  picture: Type.Union([PictureInputSchema, Type.Null()]),
});
export type RenderPlan = Static<typeof RenderPlanSchema>;

const RenderPayloadSchema = Type.Object({ taskId: Type.String(), format: AudioFormatSchema, video: Type.Boolean(), plan: RenderPlanSchema });
type RenderPayload = Static<typeof RenderPayloadSchema>;

export const RENDER_JOB = jobKind('render', RenderPayloadSchema);

/**
 * Rendering a timeline is a job: the mix (and, with a picture, the mp4) is written atomically and
 * becomes the task's file, served like other task audio; a cancelled render leaves no file.
 */
interface RenderOptions {
  format: AudioFormat;
  video: boolean;
  wait: boolean;
}

interface RendererDeps {
  queue: JobQueue;
  tasks: TaskRepository;
  taskService: TaskService;
  timeline: Pick<TimelineService, 'renderPlan'>;
  audio: AudioStore;
}

export class TimelineRenderer {
  constructor(private readonly deps: RendererDeps) {
    deps.queue.register(RENDER_JOB, (payload, context) => this.run(payload, context));
  }

  /**
   * Renders the caller's timeline into the task's file. With `wait` false it answers at once with
   * the job (follow it on /ws); otherwise with the finished task and its file.
   */
  async merge(taskId: string, ownerKeyId: string, options: RenderOptions): Promise<{ job: JobRecord } | { task: TaskRecord; audio: Buffer }> {
    const task = this.deps.taskService.owned(taskId, ownerKeyId);
    const rendered = await this.render(task, this.deps.timeline.renderPlan(task, ownerKeyId), options, ownerKeyId);
    if (!rendered.task) return { job: rendered.job };
    return { task: rendered.task, audio: await this.deps.taskService.audioOf(rendered.task) };
  }

  /** Queues the render; `wait` false answers at once with the job (follow it on /ws). */
  private async render(task: TaskRecord, plan: RenderPlan, options: RenderOptions, ownerKeyId: string) {
    if (options.video && !plan.picture) {
      throw new ApiError(409, 'no_picture', 'The timeline has no video or image to render; import one or render audio', { task_id: task.id });
    }
    if (plan.duration <= 0) throw new ApiError(409, 'timeline_empty', 'The timeline has nothing audible to render', { task_id: task.id });
    const job = this.deps.queue.submit({
      kind: RENDER_JOB,
      ownerKeyId,
      taskId: task.id,
      payload: { taskId: task.id, ...options, plan } satisfies RenderPayload,
    });
    if (!options.wait) return { job };
    const done = await completedJob(this.deps.queue, job.id);
    return { job: done, task: this.deps.tasks.get(task.id)! };
  }

  private async run(payload: RenderPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const { plan } = payload;
    const name = `${payload.taskId}_timeline`;
    const onProgress = (from: number, to: number) => (fraction: number) => context.progress(from + fraction * (to - from), 'rendering');
    if (!payload.video) {
      const stored = this.deps.audio.pathFor(`${name}.${FILE_EXTENSIONS[payload.format]}`);
      await renderAudio(plan.inputs, {
        duration: plan.duration,
        output: this.deps.audio.absolute(stored),
        format: payload.format,
        signal: context.signal,
        onProgress: onProgress(0, 1),
      });
      return this.record(payload.taskId, stored, payload.format, plan.duration, encodedRate(payload.format, 48_000));
    }
    const mix = this.deps.audio.absolute(this.deps.audio.pathFor(`${name}_mix.wav`));
    const stored = this.deps.audio.pathFor(`${name}.mp4`);
    try {
      await renderAudio(plan.inputs, { duration: plan.duration, output: mix, format: 'wav', signal: context.signal, onProgress: onProgress(0, 0.4) });
      await renderVideo(mix, plan.picture!, {
        duration: plan.duration,
        output: this.deps.audio.absolute(stored),
        signal: context.signal,
        onProgress: onProgress(0.4, 1),
      });
    } finally {
      await rm(mix, { force: true });
    }
    return this.record(payload.taskId, stored, 'mp4', plan.duration, 48_000);
  }

  private async record(taskId: string, stored: string, format: string, duration: number, sampleRate: number): Promise<Record<string, unknown>> {
    // The render becomes the task's file; an earlier merge or render of another format goes.
    const previous = this.deps.tasks.get(taskId)?.audioPath;
    await this.deps.audio.record(
      stored,
      () => this.deps.tasks.update(taskId, { audioPath: stored, format, duration, sampleRate }, new Date().toISOString()),
      previous,
    );
    return { task_id: taskId, audio_url: `/api/tasks/${taskId}/audio`, duration, format };
  }
}
