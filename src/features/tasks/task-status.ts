import type { JobRecord } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { TaskRecord, TaskRepository } from './repository.js';
import { isJobEvent, type EventBus, type JobEventType } from '../../platform/events.js';

const STATUS_BY_EVENT: Partial<Record<JobEventType, TaskRecord['status']>> = {
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
    if (!isJobEvent(event)) return;
    const status = STATUS_BY_EVENT[event.type];
    const { task_id: taskId, kind } = event.data;
    if (!status || taskId === null || !kinds.includes(kind)) return;
    const task = tasks.get(taskId);
    if (!task) return;
    const error = event.type === 'job.failed' ? event.data.error : null;
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
