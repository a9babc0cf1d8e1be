import { rm } from 'node:fs/promises';
import { Type, type Static } from 'typebox';
import { AudioFormatSchema, FILE_EXTENSIONS, encodedRate, type AudioFormat } from '../../platform/audio/encode.js';
import { jobKind } from '../../platform/jobs/kinds.js';
import { renderAudio, renderVideo } from './mix.js';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRunContext } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { RenderRecord, TaskRecord, TaskService } from '../tasks/index.js';
import type { TimelineService } from './service.js';
import type { JobRecord } from '../../platform/jobs/types.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { MixInputSchema, PictureInputSchema } from './types.js';
import { newId } from '../../platform/util/ids.js';

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
 * Rendering a timeline is a job: the mix (and, with a picture, the mp4) is written atomically as a
 * render of its own beside the task's merges (the task's own audio stays its latest merge); it
 * replaces only the earlier timeline render of the same format. A cancelled render leaves no file.
 */
interface RenderOptions {
  format: AudioFormat;
  video: boolean;
  wait: boolean;
}

interface RendererDeps {
  queue: JobQueue;
  taskService: TaskService;
  timeline: Pick<TimelineService, 'renderPlan'>;
  audio: AudioStore;
}

export class TimelineRenderer {
  constructor(private readonly deps: RendererDeps) {
    deps.queue.register(RENDER_JOB, (payload, context) => this.run(payload, context));
  }

  /**
   * Renders the caller's timeline into a render of the task. With `wait` false it answers at once
   * with the job (follow it on /ws; its result names the render); otherwise with the render and its file.
   */
  async merge(taskId: string, ownerKeyId: string, options: RenderOptions): Promise<{ job: JobRecord } | { render: RenderRecord; file: Buffer }> {
    const task = this.deps.taskService.owned(taskId, ownerKeyId);
    const rendered = await this.render(task, this.deps.timeline.renderPlan(task, ownerKeyId), options, ownerKeyId);
    if (!options.wait) return { job: rendered };
    const renderId = rendered.result?.render_id;
    if (typeof renderId !== 'string') throw new Error(`render job ${rendered.id} finished without a render`);
    return this.deps.taskService.renderFile(task, renderId);
  }

  /** Queues the render: the job, finished unless `wait` is false. */
  private async render(task: TaskRecord, plan: RenderPlan, options: RenderOptions, ownerKeyId: string): Promise<JobRecord> {
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
    return options.wait ? completedJob(this.deps.queue, job.id) : job;
  }

  private async run(payload: RenderPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const { plan } = payload;
    const renderId = newId('render');
    const name = `${payload.taskId}_timeline_${renderId}`;
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
      return this.record({
        id: renderId,
        taskId: payload.taskId,
        path: stored,
        format: payload.format,
        duration: plan.duration,
        sampleRate: encodedRate(payload.format, 48_000),
      });
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
    return this.record({ id: renderId, taskId: payload.taskId, path: stored, format: 'mp4', duration: plan.duration, sampleRate: 48_000 });
  }

  private async record(render: Pick<RenderRecord, 'id' | 'taskId' | 'path' | 'format' | 'duration' | 'sampleRate'>): Promise<Record<string, unknown>> {
    await this.deps.taskService.recordRender({ ...render, kind: 'timeline', timings: null });
    const { id, taskId, duration, format } = render;
    return { task_id: taskId, render_id: id, audio_url: `/api/tasks/${taskId}/renders/${id}`, duration, format };
  }
}
