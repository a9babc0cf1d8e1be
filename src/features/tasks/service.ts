import { readFile } from 'node:fs/promises';
import { ApiError } from '../../platform/errors.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { Cue } from '../../platform/text/subtitles.js';
import type { TaskKind, TaskRecord, TaskRepository } from './repository.js';

/** What a kind of task shows besides the fields every task has (a long-form task's chunks). */
export type TaskDetails = (task: TaskRecord) => Record<string, unknown>;

/**
 * The tasks capability: every generation, long-form text and timeline render is a stored task. A
 * task exists only for the key that created it; this is the one place that says so.
 */
export class TaskService {
  private readonly details = new Map<string, TaskDetails>();

  constructor(private readonly deps: { tasks: TaskRepository; audio: AudioStore }) {}

  /** Capabilities that own a kind of task add what it shows; the tasks capability knows none of them. */
  describeKind(kind: TaskKind, details: TaskDetails): void {
    if (this.details.has(kind)) throw new Error(`Task kind ${kind} is already described`);
    this.details.set(kind, details);
  }

  /** A task as its owner sees it; tasks of other keys do not exist for the caller. */
  owned(taskId: string, ownerKeyId: string): TaskRecord {
    const task = this.deps.tasks.get(taskId);
    if (!task || task.ownerKeyId !== ownerKeyId) throw new ApiError(404, 'task_not_found', `No task ${taskId}`, { task_id: taskId });
    return task;
  }

  /** The audio of a completed task; anything else has none yet (409). */
  async audioOf(task: TaskRecord): Promise<Buffer> {
    if (task.status !== 'completed' || !task.audioPath) {
      throw new ApiError(409, 'task_not_ready', `Task ${task.id} has no audio (status ${task.status})`, { task_id: task.id, status: task.status });
    }
    return readFile(this.deps.audio.absolute(task.audioPath));
  }

  present(task: TaskRecord): PublicTask {
    return { ...presentTask(task), ...this.details.get(task.kind)?.(task) };
  }

  /** Sentence times of a merged long-form file, else word times of a single generation. */
  cuesOf(task: TaskRecord): Cue[] {
    const timings = (task.timings ?? {}) as { sentences?: Cue[]; words?: { word: string; start: number; end: number }[] | null };
    if (timings.sentences) return timings.sentences.map(({ start, end, text }) => ({ start, end, text }));
    if (timings.words) return timings.words.map(({ word, start, end }) => ({ start, end, text: word }));
    throw new ApiError(409, 'timings_unavailable', `Task ${task.id} has no sentence or word times (merge a long-form task first)`, { task_id: task.id });
  }
}

export type PublicTask = ReturnType<typeof presentTask> & Record<string, unknown>;

function presentTask(task: TaskRecord) {
  return {
    task_id: task.id,
    kind: task.kind,
    status: task.status,
    voice_id: task.voiceId,
    text: task.text,
    language: task.language,
    format: task.format,
    sample_rate: task.sampleRate,
    duration: task.duration,
    timings: task.timings as Record<string, unknown> | null,
    stages: task.stages,
    error: task.error,
    job_id: task.jobId,
    audio_url: task.status === 'completed' && task.audioPath ? `/api/tasks/${task.id}/audio` : null,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}
