import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Log } from '../../platform/log.js';
import type { Db } from '../../platform/store/database.js';
import type { TaskRemoval } from '../tasks/index.js';
import { TASK_BYTES } from './usage.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often expired tasks are looked for, after the pass at start. */
export const RETENTION_SWEEP_MS = 60 * 60 * 1000;
/** Tasks deleted per transaction; requests run between batches. */
const SWEEP_BATCH = 100;

/**
 * A task the retention deletes once its last change is older than `@cutoff`: filed in no project,
 * finished (completed, failed or cancelled) and with no job of it queued or running.
 */
const EXPIRED = `t.project_id IS NULL AND t.updated_at < @cutoff AND t.status IN ('completed', 'failed', 'cancelled')
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.task_id = t.id AND j.state IN ('queued', 'running'))`;

/** What the sweeps of the next day will delete for a key, as things stand now. */
export interface Expiring {
  tasks: number;
  bytes: number;
  /** When the first of them is due (its last change plus the retention); the hourly sweep deletes it within the hour after. */
  next_at: string | null;
}

export interface TaskRetentionDeps {
  db: Db;
  removal: TaskRemoval;
  /** 0 keeps every task. */
  retentionDays: number;
  log: Log;
}

/** Deletes finished tasks filed in no project once they are older than TIMBRE_TASK_RETENTION_DAYS, at start and then hourly. */
export class TaskRetention {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: TaskRetentionDeps) {}

  start(): Promise<number> {
    this.timer ??= setInterval(() => void this.sweepLogged(), RETENTION_SWEEP_MS).unref();
    return this.sweepLogged();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Deletes every expired task, a batch per transaction; answers how many went. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.deps.retentionDays === 0) return 0;
    const cutoff = new Date(now - this.deps.retentionDays * DAY_MS).toISOString();
    const select = this.deps.db.prepare<[{ cutoff: string }], string>(`SELECT t.id FROM tasks t WHERE ${EXPIRED} LIMIT ${SWEEP_BATCH}`).pluck();
    let removed = 0;
    for (let batch = select.all({ cutoff }); batch.length > 0; batch = select.all({ cutoff })) {
      await this.deps.removal.remove(batch);
      removed += batch.length;
      await yieldToRequests();
    }
    return removed;
  }

  /** Per owning key, the tasks that are expired or expire within the next day. */
  expiring(now = Date.now()): Map<string, Expiring> {
    const days = this.deps.retentionDays;
    if (days === 0) return new Map();
    const cutoff = new Date(now - days * DAY_MS + DAY_MS).toISOString();
    const rows = this.deps.db
      .prepare<[{ cutoff: string }], { key_id: string | null; tasks: number; bytes: number; oldest: string }>(
        `SELECT t.owner_key_id AS key_id, count(*) AS tasks, sum(${TASK_BYTES}) AS bytes, min(t.updated_at) AS oldest
         FROM tasks t WHERE ${EXPIRED} GROUP BY t.owner_key_id`,
      )
      .all({ cutoff });
    return new Map(
      rows.flatMap((row) => (row.key_id === null ? [] : [[row.key_id, { tasks: row.tasks, bytes: row.bytes, next_at: dueAt(row.oldest, days) }] as const])),
    );
  }

  private sweepLogged(): Promise<number> {
    return this.sweep().catch((error: unknown) => {
      // A full disk cannot take the deletions either; the next sweep tries again.
      this.deps.log.warn({ err: error }, 'the task retention sweep failed');
      return 0;
    });
  }
}

function dueAt(updatedAt: string, days: number): string {
  return new Date(Date.parse(updatedAt) + days * DAY_MS).toISOString();
}
