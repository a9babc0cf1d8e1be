import type { Db } from '../../platform/store/database.js';
import type { FileSizes } from './file-sizes.js';

/**
 * The bytes a task holds, for a `tasks` row aliased `t`: its audio, every take of its chunks, its
 * renders, and its timeline's imported media, as measured (files not measured yet count 0).
 */
export const TASK_BYTES = `(coalesce(t.size_bytes, 0)
  + (SELECT coalesce(sum(size_bytes), 0) FROM chunk_takes WHERE task_id = t.id)
  + (SELECT coalesce(sum(size_bytes), 0) FROM renders WHERE task_id = t.id)
  + (SELECT coalesce(sum(size_bytes), 0) FROM timeline_media WHERE task_id = t.id))`;

/** Bytes per owning key: its tasks' files and its assets. Voices belong to no key and count for none. */
const BYTES_BY_OWNER = `
  SELECT owner_key_id AS key_id, sum(bytes) AS bytes FROM (
    SELECT t.owner_key_id, ${TASK_BYTES} AS bytes FROM tasks t WHERE t.owner_key_id IN (SELECT value FROM json_each(@keys))
    UNION ALL
    SELECT owner_key_id, size_bytes FROM assets WHERE owner_key_id IN (SELECT value FROM json_each(@keys))
  ) GROUP BY owner_key_id`;

/** What each key's work holds on disk, summed from the sizes kept in the database. */
export class StorageUsage {
  constructor(
    private readonly db: Db,
    private readonly sizes: FileSizes,
  ) {}

  /** Measures what was recorded since the last look, then sums. */
  async usedBytes(keyIds: string[]): Promise<Map<string, number>> {
    await this.sizes.measurePending();
    const rows = this.db.prepare<[{ keys: string }], { key_id: string; bytes: number }>(BYTES_BY_OWNER).all({ keys: JSON.stringify(keyIds) });
    return new Map(keyIds.map((keyId) => [keyId, rows.find((row) => row.key_id === keyId)?.bytes ?? 0]));
  }

  async usedBytesOf(keyId: string): Promise<number> {
    return (await this.usedBytes([keyId])).get(keyId) ?? 0;
  }
}
