import type { JobRecord } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { TaskRecord, TaskRepository } from './repository.js';
import type { EventBus } from '../../platform/events.js';

const STATUS_BY_EVENT: Record<string, TaskRecord['status']> = {
  'job.started': 'running',
  'job.completed': 'completed',
  'job.failed': 'failed',
  'job.cancelled': 'cancelled',
};

/**
 * Keeps a task's status in step with the job that produces it (jobs of `kinds` only: a later
 * regeneration or merge of the same task does not change what the task is). A cancelled or failed
 * task keeps no audio. The status is written eventually: the job has ended whether or not the disk
 * has room to record it, and the task says so meanwhile.
 */
export function followTaskJobs(events: EventBus, tasks: TaskRepository, audio: AudioStore, kinds: readonly string[]): void {
  events.subscribe((event) => {
    const status = STATUS_BY_EVENT[event.type];
    const taskId = event.data.task_id;
    if (!status || typeof taskId !== 'string' || !kinds.includes(String(event.data.kind))) return;
    const task = tasks.get(taskId);
    if (!task) return;
    const error = (event.data.error as TaskRecord['error']) ?? null;
    const droppedAudio = status === 'cancelled' || status === 'failed' ? task.audioPath : null;
    tasks.updateEventually(
      taskId,
      { status, ...(error ? { error } : {}), ...(droppedAudio ? { audioPath: null, duration: null } : {}) },
      new Date().toISOString(),
    );
    // After the row: a file that cannot be removed is only space, never a task pointing at nothing.
    if (droppedAudio) void audio.remove(droppedAudio).catch(() => undefined);
  });
}

/**
 * Submits the job that produces a task just inserted. When the queue refuses it (full queue, full
 * disk) the task goes too, so no task waits for a job that does not exist.
 */
export function submitTaskJob(tasks: TaskRepository, taskId: string, submit: () => JobRecord): JobRecord {
  try {
    return submit();
  } catch (refused) {
    try {
      tasks.delete(taskId);
    } catch {
      // A full disk can refuse the delete as well; the refusal of the job is still the answer.
    }
    throw refused;
  }
}
