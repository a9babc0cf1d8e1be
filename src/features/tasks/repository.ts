import type { Db } from '../../platform/store/database.js';
import type { KeptChannel, KeptWrites } from '../../platform/store/kept-writes.js';

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  id: string;
  kind: string;
  ownerKeyId: string | null;
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

interface TaskRow {
  id: string;
  kind: string;
  owner_key_id: string | null;
  status: TaskStatus;
  voice_id: string | null;
  text: string | null;
  language: string | null;
  format: string | null;
  sample_rate: number | null;
  duration: number | null;
  audio_path: string | null;
  timings: string | null;
  stages: string | null;
  error: string | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
}

function fromRow(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    kind: row.kind,
    ownerKeyId: row.owner_key_id,
    status: row.status,
    voiceId: row.voice_id,
    text: row.text,
    language: row.language,
    format: row.format,
    sampleRate: row.sample_rate,
    duration: row.duration,
    audioPath: row.audio_path,
    timings: row.timings ? (JSON.parse(row.timings) as unknown) : null,
    stages: row.stages ? (JSON.parse(row.stages) as Record<string, number>) : null,
    error: row.error ? (JSON.parse(row.error) as TaskRecord['error']) : null,
    jobId: row.job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const JSON_COLUMNS: ReadonlySet<keyof TaskChanges> = new Set(['timings', 'stages', 'error']);

function asJson(value: unknown): string | null {
  return value == null ? null : JSON.stringify(value);
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
        `INSERT INTO tasks (id, kind, owner_key_id, status, voice_id, text, language, format, sample_rate, duration, audio_path, timings, stages, error, job_id, created_at, updated_at)
         VALUES (@id, @kind, @ownerKeyId, @status, @voiceId, @text, @language, @format, @sampleRate, @duration, @audioPath, @timings, @stages, @error, @jobId, @createdAt, @updatedAt)`,
      )
      .run({ ...task, timings: asJson(task.timings), stages: asJson(task.stages), error: asJson(task.error) });
  }

  /** Chunks, timelines and media of the task go with it (ON DELETE CASCADE). */
  delete(id: string): void {
    this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
  }

  get(id: string): TaskRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    if (!row) return undefined;
    const unsaved = this.unsaved.kept(id);
    return unsaved ? { ...fromRow(row), ...unsaved.changes, updatedAt: unsaved.at } : fromRow(row);
  }

  /**
   * `update` for changes no request waits on (a task following its job): while the disk is full
   * they are kept, read back by `get`, and written once space returns; never throws.
   */
  updateEventually(id: string, changes: TaskChanges, at: string): void {
    this.unsaved.write(id, { changes, at });
  }

  update(id: string, changes: TaskChanges, at: string): void {
    const columns: Record<keyof TaskChanges, string> = {
      status: 'status',
      duration: 'duration',
      audioPath: 'audio_path',
      timings: 'timings',
      stages: 'stages',
      error: 'error',
      jobId: 'job_id',
      sampleRate: 'sample_rate',
      format: 'format',
    };
    const entries = Object.entries(changes) as [keyof TaskChanges, unknown][];
    if (entries.length === 0) return;
    const assignments = entries.map(([key]) => `${columns[key]} = @${key}`).join(', ');
    const values = Object.fromEntries(entries.map(([key, value]) => [key, JSON_COLUMNS.has(key) ? asJson(value) : value]));
    this.db.prepare(`UPDATE tasks SET ${assignments}, updated_at = @at WHERE id = @id`).run({ ...values, at, id });
  }
}
