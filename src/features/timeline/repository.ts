import type { TimelineDocument, TimelineMedia } from './types.js';
import { Value } from 'typebox/value';
import type { Db } from '../../platform/store/database.js';
import { rowMapper, type RowOf } from '../../platform/store/rows.js';
import { StoredTimelineSchema } from './schemas.js';

type MediaRow = RowOf<TimelineMedia, never, 'hasAudio'>;

const mediaFromRow = rowMapper<TimelineMedia, never, 'hasAudio'>({}, ['hasAudio']);

/** The saved timeline of a task (one JSON document with its version) and the pictures imported into it. */
export class TimelineRepository {
  constructor(private readonly db: Db) {}

  get(taskId: string): TimelineDocument | undefined {
    const row = this.db.prepare<[string], { version: number; document: string }>('SELECT version, document FROM timelines WHERE task_id = ?').get(taskId);
    if (!row) return undefined;
    const { tracks, blocks, removed_blocks = [] } = Value.Parse(StoredTimelineSchema, JSON.parse(row.document));
    return { version: row.version, tracks, blocks, removed_blocks };
  }

  /**
   * Stores the document as version `expectedVersion + 1` if the stored version is still
   * `expectedVersion` (0: never saved). Reading and writing share one transaction, so two savers
   * of the same version cannot both win. Returns the stored version that refused the save, or null.
   */
  save(taskId: string, expectedVersion: number, document: Omit<TimelineDocument, 'version'>, now: string): number | null {
    return this.db
      .transaction(() => {
        const current = this.db.prepare<[string], { version: number }>('SELECT version FROM timelines WHERE task_id = ?').get(taskId)?.version ?? 0;
        if (current !== expectedVersion) return current;
        this.db
          .prepare(
            `INSERT INTO timelines (task_id, version, document, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (task_id) DO UPDATE SET version = excluded.version, document = excluded.document, updated_at = excluded.updated_at`,
          )
          .run(taskId, expectedVersion + 1, JSON.stringify({ tracks: document.tracks, blocks: document.blocks, removed_blocks: document.removed_blocks }), now);
        return null;
      })
      .immediate();
  }

  /** Runs `work` as one transaction (saves inside it join it). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  insertMedia(media: TimelineMedia): void {
    this.db
      .prepare(
        `INSERT INTO timeline_media (id, task_id, kind, path, width, height, duration, has_audio, created_at)
         VALUES (@id, @taskId, @kind, @path, @width, @height, @duration, @hasAudio, @createdAt)`,
      )
      .run({ ...media, hasAudio: media.hasAudio ? 1 : 0 });
  }

  deleteMedia(id: string): void {
    this.db.prepare('DELETE FROM timeline_media WHERE id = ?').run(id);
  }

  getMedia(id: string): TimelineMedia | undefined {
    const row = this.db.prepare<[string], MediaRow>('SELECT * FROM timeline_media WHERE id = ?').get(id);
    return row ? mediaFromRow(row) : undefined;
  }

  listMedia(taskId: string): TimelineMedia[] {
    return this.db.prepare<[string], MediaRow>('SELECT * FROM timeline_media WHERE task_id = ? ORDER BY created_at, rowid').all(taskId).map(mediaFromRow);
  }
}
