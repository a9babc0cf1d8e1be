import type { AudioStore } from '../store/audio-store.js';
import type { TaskRecord, TaskRepository } from '../store/task-repository.js';
import type { EventBus } from './events.js';

const STATUS_BY_EVENT: Record<string, TaskRecord['status']> = {
  'job.started': 'running',
  'job.completed': 'completed',
  'job.failed': 'failed',
  'job.cancelled': 'cancelled',
};

/**
 * Keeps a task's status in step with the job that produces it (jobs of `kinds` only: a later
 * regeneration or merge of the same task does not change what the task is). A cancelled or failed
 * task keeps no audio.
 */
export function followTaskJobs(events: EventBus, tasks: TaskRepository, audio: AudioStore, kinds: readonly string[]): void {
  events.subscribe((event) => {
    const status = STATUS_BY_EVENT[event.type];
    const taskId = event.data.task_id;
    if (!status || typeof taskId !== 'string' || !kinds.includes(String(event.data.kind))) return;
    const task = tasks.get(taskId);
    if (!task) return;
    const error = (event.data.error as TaskRecord['error']) ?? null;
    const now = new Date().toISOString();
    tasks.update(taskId, { status, ...(error ? { error } : {}) }, now);
    if ((status === 'cancelled' || status === 'failed') && task.audioPath) {
      void audio.remove(task.audioPath);
      tasks.update(taskId, { audioPath: null, duration: null }, now);
    }
  });
}
