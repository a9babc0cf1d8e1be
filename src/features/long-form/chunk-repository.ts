import type { Db } from '../../platform/store/database.js';
import { assignmentsOf, readAny, readStoredError, rowMapper, type RowOf } from '../../platform/store/rows.js';
import type { KeptChannel, KeptWrites } from '../../platform/store/kept-writes.js';

export type TakeState = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface TakeRecord {
  taskId: string;
  index: number;
  take: number;
  text: string;
  voiceId: string;
  language: string;
  /** How the chunk is spoken: `voice` (its own voice) or `preset:<id>` (a stand-in for the language). */
  route: string;
  seed: number | null;
  state: TakeState;
  duration: number | null;
  /** Relative to the data directory. */
  audioPath: string | null;
  error: { code: string; message: string; details: Record<string, unknown> } | null;
  /** `{words, word_source}` of the take's own audio once it is spoken (read with `readWordTimings`); absent before, and for takes spoken before word times were kept. */
  timings?: unknown;
  createdAt: string;
}

export interface ChunkRecord {
  taskId: string;
  index: number;
  /** Which request segment (voice or language part) the chunk came from. */
  segment: number;
  /** Offsets of the chunk in its segment's text. */
  start: number;
  end: number;
  paragraphEnd: boolean;
  /** Who speaks the chunk: the script's speaker name, else the name of the segment's voice. */
  speaker: string | null;
  selectedTake: number;
  takes: TakeRecord[];
}

interface ChunkRow {
  task_id: string;
  idx: number;
  segment: number;
  start_offset: number;
  end_offset: number;
  paragraph_end: number;
  speaker: string | null;
  selected_take: number;
}

type TakeRow = RowOf<TakeRecord, 'error' | 'timings'>;

/** The take columns under their field names (the index is stored as `idx`, a word SQL keeps). */
const TAKE_COLUMNS = 'task_id, idx AS "index", take, text, voice_id, language, route, seed, state, duration, audio_path, error, timings, created_at';

const takeFromRow = rowMapper<TakeRecord, 'error' | 'timings'>({ error: readStoredError, timings: readAny });

export type TakeChanges = Partial<Pick<TakeRecord, 'state' | 'duration' | 'audioPath' | 'error' | 'timings'>>;

const TAKE_CHANGE_COLUMNS = {
  state: 'state',
  duration: 'duration',
  audioPath: 'audio_path',
  error: 'error',
  timings: 'timings',
} satisfies Record<keyof TakeChanges, string>;

function takeKey(taskId: string, index: number, take: number): string {
  return `${taskId}/${index}/${take}`;
}

export class ChunkRepository {
  /** Take changes written while the disk was full, until SQLite takes them. */
  private readonly unsaved: KeptChannel<{ taskId: string; index: number; take: number; changes: TakeChanges }>;

  constructor(
    private readonly db: Db,
    kept: KeptWrites,
  ) {
    this.unsaved = kept.channel('chunk take', {
      write: (_, { taskId, index, take, changes }) => this.updateTake(taskId, index, take, changes),
      merge: (older, newer) => ({ ...newer, changes: { ...older.changes, ...newer.changes } }),
    });
  }

  /** Inserts the chunks of a task with their first take, in one transaction. */
  insertChunks(chunks: Omit<ChunkRecord, 'takes' | 'selectedTake'>[], firstTakes: TakeRecord[]): void {
    this.db.transaction(() => {
      const chunk = this.db.prepare(
        'INSERT INTO chunks (task_id, idx, segment, start_offset, end_offset, paragraph_end, speaker) VALUES (@taskId, @index, @segment, @start, @end, @paragraphEnd, @speaker)',
      );
      for (const record of chunks) chunk.run({ ...record, paragraphEnd: record.paragraphEnd ? 1 : 0 });
      for (const take of firstTakes) this.insertTake(take);
    })();
  }

  insertTake(take: TakeRecord): void {
    this.db
      .prepare(
        `INSERT INTO chunk_takes (task_id, idx, take, text, voice_id, language, route, seed, state, duration, audio_path, error, timings, created_at)
         VALUES (@taskId, @index, @take, @text, @voiceId, @language, @route, @seed, @state, @duration, @audioPath, @error, @timings, @createdAt)`,
      )
      .run({ ...take, error: take.error ? JSON.stringify(take.error) : null, timings: take.timings == null ? null : JSON.stringify(take.timings) });
  }

  /** A new take that becomes the chunk's selected one, in one transaction. */
  insertSelectedTake(take: TakeRecord): void {
    this.db.transaction(() => {
      this.insertTake(take);
      this.selectTake(take.taskId, take.index, take.take);
    })();
  }

  /** Removes a take that never got its job, selecting `selectInstead` again. */
  deleteTake(taskId: string, index: number, take: number, selectInstead: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM chunk_takes WHERE task_id = ? AND idx = ? AND take = ?').run(taskId, index, take);
      this.selectTake(taskId, index, selectInstead);
    })();
  }

  /** Tasks with a take still pending or running: after a restart, work something must finish or close. */
  tasksWithUnfinishedTakes(): string[] {
    const rows = this.db.prepare<[], { task_id: string }>("SELECT DISTINCT task_id FROM chunk_takes WHERE state IN ('pending', 'running')").all();
    return rows.map((row) => row.task_id);
  }

  /** Tasks with a chunk whose selected take failed with this error code (`insufficient_storage`: work that waits for room). */
  tasksWithSelectedTakesFailedWith(code: string): string[] {
    const rows = this.db
      .prepare<[string], { task_id: string }>(
        `SELECT DISTINCT c.task_id FROM chunks c JOIN chunk_takes t ON t.task_id = c.task_id AND t.idx = c.idx AND t.take = c.selected_take
         WHERE t.state = 'failed' AND t.error ->> '$.code' = ?`,
      )
      .all(code);
    return rows.map((row) => row.task_id);
  }

  listForTask(taskId: string): ChunkRecord[] {
    const chunks = this.db.prepare<[string], ChunkRow>('SELECT * FROM chunks WHERE task_id = ? ORDER BY idx').all(taskId);
    const takes = this.db
      .prepare<[string], TakeRow>(`SELECT ${TAKE_COLUMNS} FROM chunk_takes WHERE task_id = ? ORDER BY idx, take`)
      .all(taskId)
      .map((row) => {
        const take = takeFromRow(row);
        const unsaved = this.unsaved.kept(takeKey(take.taskId, take.index, take.take));
        return unsaved ? { ...take, ...unsaved.changes } : take;
      });
    return chunks.map((row) => ({
      taskId: row.task_id,
      index: row.idx,
      segment: row.segment,
      start: row.start_offset,
      end: row.end_offset,
      paragraphEnd: row.paragraph_end === 1,
      speaker: row.speaker,
      selectedTake: row.selected_take,
      takes: takes.filter((take) => take.index === row.idx),
    }));
  }

  /** The voices of the task's selected takes, in order of first use. */
  voicesOf(taskId: string): string[] {
    return this.db
      .prepare<[string], { voice_id: string }>(
        `SELECT t.voice_id FROM chunks c JOIN chunk_takes t ON t.task_id = c.task_id AND t.idx = c.idx AND t.take = c.selected_take
         WHERE c.task_id = ? GROUP BY t.voice_id ORDER BY min(c.idx)`,
      )
      .all(taskId)
      .map((row) => row.voice_id);
  }

  nextTakeNumber(taskId: string, index: number): number {
    const row = this.db
      .prepare<[string, number], { last: number | null }>('SELECT max(take) AS last FROM chunk_takes WHERE task_id = ? AND idx = ?')
      .get(taskId, index);
    return (row?.last ?? 0) + 1;
  }

  updateTake(taskId: string, index: number, take: number, changes: TakeChanges): void {
    const { assignments, values } = assignmentsOf(changes, TAKE_CHANGE_COLUMNS, { error: JSON.stringify, timings: JSON.stringify });
    if (assignments === '') return;
    this.db.prepare(`UPDATE chunk_takes SET ${assignments} WHERE task_id = @taskId AND idx = @index AND take = @take`).run({ ...values, taskId, index, take });
  }

  /**
   * `updateTake` for a take's outcome, recorded by a job outside any request: while the disk is
   * full it is kept, read back by `listForTask`, and written once space returns; never throws.
   */
  updateTakeEventually(taskId: string, index: number, take: number, changes: TakeChanges): void {
    this.unsaved.write(takeKey(taskId, index, take), { taskId, index, take, changes });
  }

  selectTake(taskId: string, index: number, take: number): void {
    this.db.prepare('UPDATE chunks SET selected_take = ? WHERE task_id = ? AND idx = ?').run(take, taskId, index);
  }
}

export function selected(chunk: ChunkRecord): TakeRecord {
  return chunk.takes.find((take) => take.take === chunk.selectedTake)!;
}
