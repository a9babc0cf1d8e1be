import type { Db } from '../../platform/store/database.js';
import { readAny, rowMapper, type RowOf } from '../../platform/store/rows.js';

/** What made a render: merging a long-form task's chunks, or mixing its timeline. */
export type RenderKind = 'merge' | 'timeline';

/** One rendering of a task, kept as a file of its own beside the task's other renders. */
export interface RenderRecord {
  id: string;
  taskId: string;
  kind: RenderKind;
  /** An audio format (`wav`, `mp3`, …) or `mp4`. */
  format: string;
  sampleRate: number | null;
  duration: number | null;
  /** Relative to the data directory. */
  path: string;
  sizeBytes: number;
  /** A merge's sentence times (`{ sentences }`); null for a timeline render. */
  timings: unknown;
  createdAt: string;
}

type RenderRow = RowOf<RenderRecord, 'timings'>;

const fromRow = rowMapper<RenderRecord, 'timings'>({ timings: readAny });

/** The renders of tasks; a task's rows go with it (ON DELETE CASCADE), their files are the deleter's to remove. */
export class RenderRepository {
  constructor(private readonly db: Db) {}

  /** The render a new one of this kind and format replaces, if any. */
  sameKind(taskId: string, kind: RenderKind, format: string): RenderRecord | undefined {
    const row = this.db
      .prepare<[string, string, string], RenderRow>('SELECT * FROM renders WHERE task_id = ? AND kind = ? AND format = ? ORDER BY created_at DESC')
      .get(taskId, kind, format);
    return row && fromRow(row);
  }

  /**
   * Inserts the render in place of every earlier one of its kind and format, and runs `alongside`
   * (the task's own fields, for a merge) in the same transaction.
   */
  replace(render: RenderRecord, alongside: () => void = () => undefined): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM renders WHERE task_id = ? AND kind = ? AND format = ?').run(render.taskId, render.kind, render.format);
      this.db
        .prepare(
          `INSERT INTO renders (id, task_id, kind, format, sample_rate, duration, path, size_bytes, timings, created_at)
           VALUES (@id, @taskId, @kind, @format, @sampleRate, @duration, @path, @sizeBytes, @timings, @createdAt)`,
        )
        .run({ ...render, timings: render.timings == null ? null : JSON.stringify(render.timings) });
      alongside();
    })();
  }

  /** A task's renders, oldest first. */
  listForTask(taskId: string): RenderRecord[] {
    return this.db.prepare<[string], RenderRow>('SELECT * FROM renders WHERE task_id = ? ORDER BY created_at, id').all(taskId).map(fromRow);
  }

  get(taskId: string, renderId: string): RenderRecord | undefined {
    const row = this.db.prepare<[string, string], RenderRow>('SELECT * FROM renders WHERE task_id = ? AND id = ?').get(taskId, renderId);
    return row && fromRow(row);
  }

  /** The files of these tasks' renders, for whoever deletes the tasks to remove. */
  pathsOf(taskIds: string[]): string[] {
    if (taskIds.length === 0) return [];
    const rows = this.db
      .prepare<[string], { path: string }>('SELECT path FROM renders WHERE task_id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(taskIds));
    return rows.map((row) => row.path);
  }
}
