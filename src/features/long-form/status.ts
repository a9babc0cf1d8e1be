import type { JobQueue } from '../../platform/jobs/queue.js';
import type { ChunkRecord, ChunkRepository, TakeRecord } from './chunk-repository.js';
import { type TaskChanges, type TaskRepository } from '../tasks/index.js';
import { isJobEvent, type EventBus, type ServiceEvent } from '../../platform/events.js';

type TaskOutcome = Required<Pick<TaskChanges, 'status' | 'error'>>;

/** The job events that change what a task is (progress does not). */
const JOB_EVENTS = new Set<ServiceEvent['type']>(['job.queued', 'job.started', 'job.completed', 'job.failed', 'job.cancelled']);

function selectedTake(chunk: ChunkRecord): TakeRecord | undefined {
  return chunk.takes.find((take) => take.take === chunk.selectedTake);
}

/**
 * What a long-form task is, from the work on it and its chunks: `queued` or `running` while any of
 * its speaking jobs is (the first run or a regeneration), so a client that waits for `completed`
 * can merge at once; then `completed` when every selected take has audio, `failed` naming the
 * chunks whose selected take failed, else `cancelled`.
 */
export function longFormOutcome(activeStates: readonly string[], chunks: readonly ChunkRecord[]): TaskOutcome {
  if (activeStates.includes('running')) return { status: 'running', error: null };
  if (activeStates.length > 0) return { status: 'queued', error: null };
  const states = chunks.map((chunk) => ({ index: chunk.index, state: selectedTake(chunk)?.state }));
  const failed = states.filter((chunk) => chunk.state === 'failed').map((chunk) => chunk.index);
  if (failed.length > 0) {
    return { status: 'failed', error: { code: 'chunks_failed', message: `Chunks ${failed.join(', ')} failed; regenerate them`, details: { chunks: failed } } };
  }
  if (states.every((chunk) => chunk.state === 'completed')) return { status: 'completed', error: null };
  return { status: 'cancelled', error: null };
}

/**
 * Keeps long-form tasks' status in step with every job of `kinds` that speaks their chunks (a
 * merge does not change what the task is). Written eventually, like every status that follows a job.
 */
export class LongFormStatus {
  constructor(
    private readonly deps: { events: EventBus; queue: JobQueue; tasks: TaskRepository; chunks: ChunkRepository },
    private readonly kinds: readonly string[],
  ) {
    deps.events.subscribe((event) => {
      if (!isJobEvent(event) || !JOB_EVENTS.has(event.type)) return;
      const { task_id: taskId, kind } = event.data;
      if (taskId !== null && kinds.includes(kind)) this.refresh(taskId);
    });
  }

  /** Recomputes and records a task's status; nothing for a task that is not there (any more). */
  refresh(taskId: string): void {
    if (!this.deps.tasks.get(taskId)) return;
    const active = this.deps.queue.active((job) => job.taskId === taskId).filter((job) => this.kinds.includes(job.kind));
    const outcome = longFormOutcome(
      active.map((job) => job.state),
      this.deps.chunks.listForTask(taskId),
    );
    this.deps.tasks.updateEventually(taskId, outcome, new Date().toISOString());
  }
}
