import type { Db } from '../store/database.js';
import type { KeptChannel, KeptWrites } from '../store/kept-writes.js';
import type { JobRecord, JobState } from './types.js';
import { isRecord, readAny, readStoredError, rowMapper, type RowOf } from '../store/rows.js';

type JobRow = RowOf<JobRecord, 'payload' | 'result' | 'error'>;

const fromRow = rowMapper<JobRecord, 'payload' | 'result' | 'error'>({
  payload: readAny,
  result: (value) => (isRecord(value) ? value : null),
  error: readStoredError,
});

/** The fields that change while a job moves through the queue, as column values. */
function mutableColumns(record: JobRecord) {
  return {
    id: record.id,
    state: record.state,
    progress: record.progress,
    stage: record.stage,
    result: record.result === null ? null : JSON.stringify(record.result),
    error: record.error === null ? null : JSON.stringify(record.error),
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
  };
}

export class JobRepository {
  /** States saved while the disk was full, until SQLite takes them. */
  private readonly unsaved: KeptChannel<JobRecord>;

  constructor(
    private readonly db: Db,
    kept: KeptWrites,
  ) {
    this.unsaved = kept.channel('job', { write: (_, record) => this.update(record), merge: (_, newer) => newer });
  }

  insert(record: JobRecord): void {
    this.db
      .prepare(
        `INSERT INTO jobs (id, kind, owner_key_id, task_id, state, progress, stage, payload, result, error, created_at, started_at, finished_at)
         VALUES (@id, @kind, @ownerKeyId, @taskId, @state, @progress, @stage, @payload, @result, @error, @createdAt, @startedAt, @finishedAt)`,
      )
      .run({
        ...mutableColumns(record),
        kind: record.kind,
        ownerKeyId: record.ownerKeyId,
        taskId: record.taskId,
        // `undefined` is not JSON; store it as null so the row always parses back.
        payload: JSON.stringify(record.payload ?? null),
        createdAt: record.createdAt,
      });
  }

  /**
   * Writes the record's state, progress, outcome and timestamps (the rest never changes). The queue
   * saves outside any request, so a full disk does not fail this: the record is kept, read back by
   * `findById` and `listByState`, and written once space returns.
   */
  save(record: JobRecord): void {
    this.unsaved.write(record.id, { ...record });
  }

  private update(record: JobRecord): void {
    this.db
      .prepare(
        `UPDATE jobs SET state = @state, progress = @progress, stage = @stage, result = @result, error = @error,
           started_at = @startedAt, finished_at = @finishedAt
         WHERE id = @id`,
      )
      .run(mutableColumns(record));
  }

  findById(id: string): JobRecord | undefined {
    const row = this.db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id);
    return row && this.withUnsaved(fromRow(row));
  }

  /** Jobs in a state, oldest first; rowid breaks ties between jobs created in the same millisecond. */
  listByState(state: JobState): JobRecord[] {
    const rows = this.db.prepare<[JobState], JobRow>('SELECT * FROM jobs WHERE state = ? ORDER BY created_at, rowid').all(state);
    return rows.map((row) => this.withUnsaved(fromRow(row))).filter((record) => record.state === state);
  }

  /** Mean run time in seconds of the last `sampleSize` completed jobs of a kind, or null without any. */
  meanDurationSeconds(kind: string, sampleSize: number): number | null {
    const row = this.db
      .prepare<[string, number], { mean: number | null }>(
        `SELECT avg((julianday(finished_at) - julianday(started_at)) * 86400) AS mean
         FROM (SELECT started_at, finished_at FROM jobs
               WHERE kind = ? AND state = 'completed' AND started_at IS NOT NULL AND finished_at IS NOT NULL
               ORDER BY finished_at DESC, rowid DESC LIMIT ?)`,
      )
      .get(kind, sampleSize);
    return row?.mean ?? null;
  }

  private withUnsaved(record: JobRecord): JobRecord {
    const unsaved = this.unsaved.kept(record.id);
    return unsaved ? { ...unsaved } : record;
  }
}
