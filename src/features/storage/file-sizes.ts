import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Log } from '../../platform/log.js';
import type { Db } from '../../platform/store/database.js';
import { bestEffort } from '../../platform/storage-full.js';
import { resolveInside } from '../../platform/util/files.js';

/** Rows measured per pass: a pass that runs before a generation stays short. */
const MEASURE_BATCH = 200;

/**
 * A table whose rows record a file without its size. Its `size_bytes` is NULL until measured here,
 * and set back to NULL by a trigger when the row moves to another file (schema 11). Renders and
 * assets record their size as they write their file, so they need no measuring.
 */
interface UnmeasuredTable {
  /** The rows not yet measured: their key (`id`, as text) and file (`path`). */
  pending: string;
  /** Records `@size` for the row `@id`, if it still points at `@path`. */
  record: string;
}

const TABLES: readonly UnmeasuredTable[] = [
  {
    pending: 'SELECT id, audio_path AS path FROM tasks WHERE size_bytes IS NULL AND audio_path IS NOT NULL LIMIT ?',
    record: 'UPDATE tasks SET size_bytes = @size WHERE id = @id AND audio_path = @path',
  },
  {
    pending: `SELECT json_array(task_id, idx, take) AS id, audio_path AS path FROM chunk_takes
              WHERE size_bytes IS NULL AND audio_path IS NOT NULL LIMIT ?`,
    record: `UPDATE chunk_takes SET size_bytes = @size
             WHERE task_id = @id ->> 0 AND idx = @id ->> 1 AND take = @id ->> 2 AND audio_path = @path`,
  },
  {
    pending: 'SELECT id, path FROM timeline_media WHERE size_bytes IS NULL LIMIT ?',
    record: 'UPDATE timeline_media SET size_bytes = @size WHERE id = @id AND path = @path',
  },
];

interface Measured {
  id: string;
  path: string;
  size: number;
}

/**
 * Measures the files recorded since the last pass (a stat each) and keeps their sizes in their rows,
 * so a key's usage is a sum in SQLite rather than a walk of its folders. At start every row of an
 * older data directory is unmeasured: `measureAll` works through them a batch at a time.
 */
export class FileSizes {
  private readonly dataDir: string;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly log: Log,
  ) {
    this.dataDir = resolve(dataDir);
  }

  /** One pass of at most a batch per table; concurrent callers share the pass under way. Answers the rows measured. */
  measurePending(): Promise<number> {
    this.running ??= this.measureBatch().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Passes until nothing is left to measure (or a pass cannot record what it measured). */
  async measureAll(): Promise<void> {
    while ((await this.measurePending()) > 0);
  }

  private async measureBatch(): Promise<number> {
    let recorded = 0;
    for (const table of TABLES) {
      const rows = this.db.prepare<[number], { id: string; path: string }>(table.pending).all(MEASURE_BATCH);
      const measured = await Promise.all(rows.map(async (row): Promise<Measured> => ({ ...row, size: await this.sizeOf(row.path) })));
      if (measured.length === 0) continue;
      const statement = this.db.prepare<[Measured], unknown>(table.record);
      let written = false;
      bestEffort(this.log, 'sizes of stored files', () => {
        this.db.transaction(() => measured.forEach((row) => statement.run(row)))();
        written = true;
      });
      if (written) recorded += measured.length;
    }
    return recorded;
  }

  /** A file already gone (removed by hand, or a crash before it was written) holds nothing. */
  private async sizeOf(stored: string): Promise<number> {
    try {
      return (await stat(resolveInside(this.dataDir, this.dataDir, stored))).size;
    } catch {
      return 0;
    }
  }
}
