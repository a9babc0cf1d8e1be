import type { Db } from '../../platform/store/database.js';
import { newId } from '../../platform/util/ids.js';
import { assignmentsOf, readAny, readNumbers, readStoredError, rowMapper, type RowOf } from '../../platform/store/rows.js';
import type { KeptChannel, KeptWrites } from '../../platform/store/kept-writes.js';
import type { Position } from '../../platform/http/cursor.js';

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What a task is: a single generation, or a long text spoken in chunks. */
export type TaskKind = 'generation' | 'long-form';

export interface TaskRecord {
  id: string;
  kind: TaskKind;
  ownerKeyId: string | null;
  /** The project the task is filed in; it is kept (and deleted) with the project. */
  projectId: string | null;
  status: TaskStatus;
  voiceId: string | null;
  text: string | null;
  language: string | null;
  format: string | null;
  sampleRate: number | null;
  duration: number | null;
  /** Relative to the data directory. */
  audioPath: string | null;
  timings: unknown;
  /** Milliseconds per stage of the synthesis (queue_ms, text_ms, engine_ms, encode_ms, store_ms). */
  stages: Record<string, number> | null;
  error: { code: string; message: string; details: Record<string, unknown> } | null;
  jobId: string | null;
  createdAt: string;
  updatedAt: string;
}

type TaskRow = RowOf<TaskRecord, 'timings' | 'stages' | 'error'>;

const fromRow = rowMapper<TaskRecord, 'timings' | 'stages' | 'error'>({ timings: readAny, stages: readNumbers, error: readStoredError });

/** A new task of its kind, queued and empty, created now: the one way every capability makes one. */
export function newTask(
  kind: TaskKind,
  fields: Pick<TaskRecord, 'ownerKeyId' | 'voiceId' | 'text' | 'language' | 'format' | 'sampleRate'> & { projectId?: string | null },
  at = new Date().toISOString(),
): TaskRecord {
  return {
    ...fields,
    projectId: fields.projectId ?? null,
    id: newId('task'),
    kind,
    status: 'queued',
    duration: null,
    audioPath: null,
    timings: null,
    stages: null,
    error: null,
    jobId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Each field a change may set, with its column. */
const CHANGE_COLUMNS = {
  status: 'status',
  duration: 'duration',
  audioPath: 'audio_path',
  timings: 'timings',
  stages: 'stages',
  error: 'error',
  jobId: 'job_id',
  sampleRate: 'sample_rate',
  format: 'format',
} satisfies Record<keyof TaskChanges, string>;

const JSON_WRITERS = { timings: JSON.stringify, stages: JSON.stringify, error: JSON.stringify };

function asJson(value: unknown): string | null {
  return value == null ? null : JSON.stringify(value);
}

/** Which of a key's tasks a list shows; `projectId` null: tasks filed in no project. */
export interface TaskFilter {
  ownerKeyId?: string;
  kind?: TaskKind;
  status?: TaskStatus;
  projectId?: string | null;
  /** Tasks created before this position (keyset paging, newest first). */
  before?: Position;
}

export type TaskChanges = Partial<Pick<TaskRecord, 'status' | 'duration' | 'audioPath' | 'timings' | 'stages' | 'error' | 'jobId' | 'sampleRate' | 'format'>>;

/** Changes written while the disk was full, until SQLite takes them. */
interface UnsavedChanges {
  changes: TaskChanges;
  at: string;
}

export class TaskRepository {
  private readonly unsaved: KeptChannel<UnsavedChanges>;

  constructor(
    private readonly db: Db,
    kept: KeptWrites,
  ) {
    this.unsaved = kept.channel('task', {
      write: (id, { changes, at }) => this.update(id, changes, at),
      merge: (older, newer) => ({ changes: { ...older.changes, ...newer.changes }, at: newer.at }),
    });
  }

  insert(task: TaskRecord): void {
    this.db
      .prepare(
        `INSERT INTO tasks (id, kind, owner_key_id, project_id, status, voice_id, text, language, format, sample_rate, duration, audio_path, timings, stages, error, job_id, created_at, updated_at)
         VALUES (@id, @kind, @ownerKeyId, @projectId, @status, @voiceId, @text, @language, @format, @sampleRate, @duration, @audioPath, @timings, @stages, @error, @jobId, @createdAt, @updatedAt)`,
      )
      .run({ ...task, timings: asJson(task.timings), stages: asJson(task.stages), error: asJson(task.error) });
  }

  /** Chunks, timelines and media of the task go with it (ON DELETE CASCADE). */
  delete(id: string): void {
    this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
  }

  get(id: string): TaskRecord | undefined {
    const row = this.db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?').get(id);
    return row ? this.withUnsaved(fromRow(row)) : undefined;
  }

  /** At most `limit` tasks matching the filter, newest first. */
  list(filter: TaskFilter, limit: number): TaskRecord[] {
    const { where, values } = whereOf(filter);
    const rows = this.db
      .prepare<Record<string, unknown>[], TaskRow>(`SELECT * FROM tasks ${where} ORDER BY created_at DESC, id DESC LIMIT @limit`)
      .all({ ...values, limit });
    return rows.map((row) => this.withUnsaved(fromRow(row)));
  }

  /** How many tasks match the filter, paging aside. */
  count(filter: Omit<TaskFilter, 'before'>): number {
    const { where, values } = whereOf(filter);
    return this.db.prepare<Record<string, unknown>[], { n: number }>(`SELECT count(*) AS n FROM tasks ${where}`).get(values)?.n ?? 0;
  }

  private withUnsaved(task: TaskRecord): TaskRecord {
    const unsaved = this.unsaved.kept(task.id);
    return unsaved ? { ...task, ...unsaved.changes, updatedAt: unsaved.at } : task;
  }

  /**
   * `update` for changes no request waits on (a task following its job): while the disk is full
   * they are kept, read back by `get`, and written once space returns; never throws.
   */
  updateEventually(id: string, changes: TaskChanges, at: string): void {
    this.unsaved.write(id, { changes, at });
  }

  update(id: string, changes: TaskChanges, at: string): void {
    const { assignments, values } = assignmentsOf(changes, CHANGE_COLUMNS, JSON_WRITERS);
    if (assignments === '') return;
    this.db.prepare(`UPDATE tasks SET ${assignments}, updated_at = @at WHERE id = @id`).run({ ...values, at, id });
  }
}

function whereOf(filter: TaskFilter): { where: string; values: Record<string, unknown> } {
  const conditions: string[] = [];
  const values: Record<string, unknown> = {};
  if (filter.ownerKeyId !== undefined) conditions.push('owner_key_id = @ownerKeyId');
  if (filter.kind !== undefined) conditions.push('kind = @kind');
  if (filter.status !== undefined) conditions.push('status = @status');
  if (filter.projectId === null) conditions.push('project_id IS NULL');
  else if (filter.projectId !== undefined) conditions.push('project_id = @projectId');
  if (filter.before) conditions.push('(created_at < @beforeAt OR (created_at = @beforeAt AND id < @beforeId))');
  for (const field of ['ownerKeyId', 'kind', 'status', 'projectId'] as const) if (filter[field] != null) values[field] = filter[field];
  if (filter.before) Object.assign(values, { beforeAt: filter.before.at, beforeId: filter.before.id });
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', values };
}
