import { ApiError } from '../../platform/errors.js';
import type { JobRecord } from '../../platform/jobs/types.js';
import { payloadFits } from '../../platform/jobs/kinds.js';
import { INSUFFICIENT_STORAGE } from '../../platform/storage-full.js';
import { selected } from './chunk-repository.js';
import type { LongFormDeps } from './deps.js';
import { LONG_FORM_JOB, type TakeAsk } from './jobs.js';
import type { TaskRecord } from '../tasks/index.js';

/**
 * Goes on with long-form tasks whose chunks failed: a task whose speaking ran out of space resumes
 * by itself once the disk has room again (also after a restart), and regenerating a chunk of a
 * task speaks its other failed chunks again too. A resume speaks only chunks whose selected take
 * failed, the same take once more; chunks with audio keep it.
 */
export class LongFormResume {
  constructor(
    private readonly deps: LongFormDeps,
    /** The job kinds that speak a task's chunks. */
    private readonly kinds: readonly string[],
  ) {
    deps.events.subscribe((event) => {
      if (event.type !== 'job.failed') return;
      const { task_id: taskId, kind, error } = event.data;
      if (taskId !== null && kinds.includes(kind) && error.code === INSUFFICIENT_STORAGE) this.whenRoom(taskId);
    });
  }

  /** At start: tasks that stopped for lack of space before, their failure recorded on their chunks, wait for room again. */
  recover(): void {
    for (const taskId of this.deps.chunks.tasksWithSelectedTakesFailedWith(INSUFFICIENT_STORAGE)) this.whenRoom(taskId);
  }

  /**
   * Submits a run of the task's failed chunks but `except` (a chunk being regenerated), unless
   * there are none or a run of the task is already queued or running.
   */
  resume(taskId: string, except?: number): JobRecord | undefined {
    const task = this.deps.tasks.get(taskId);
    if (!task || this.deps.queue.active((job) => job.taskId === taskId && job.kind === LONG_FORM_JOB.name).length > 0) return undefined;
    const failed = this.deps.chunks
      .listForTask(taskId)
      .filter((chunk) => chunk.index !== except && selected(chunk).state === 'failed')
      .map((chunk) => chunk.index);
    if (failed.length === 0) return undefined;
    return this.deps.queue.submit({ kind: LONG_FORM_JOB, ownerKeyId: task.ownerKeyId, taskId, payload: { taskId, ...this.firstAsk(task), chunks: failed } });
  }

  /** What the task's first run was asked to speak with (speed, dictionaries), for the runs and takes after it. */
  firstAsk(task: TaskRecord): TakeAsk {
    const first = task.jobId ? this.deps.queue.get(task.jobId) : undefined;
    if (!first || !payloadFits(LONG_FORM_JOB, first.payload)) return {};
    const { speed, pronunciationIds } = first.payload;
    return { ...(speed !== undefined ? { speed } : {}), ...(pronunciationIds ? { pronunciationIds } : {}) };
  }

  private whenRoom(taskId: string): void {
    this.deps.kept.whenRoom(`long-form ${taskId}`, () => {
      try {
        this.resume(taskId);
      } catch (error) {
        // A full queue leaves the task waiting for the next retry, as a disk full again does.
        if (error instanceof ApiError && error.code === 'queue_full') this.whenRoom(taskId);
        else throw error;
      }
    });
  }
}
