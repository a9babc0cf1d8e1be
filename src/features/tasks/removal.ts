import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Log } from '../../platform/log.js';
import type { Db } from '../../platform/store/database.js';
import { resolveInside } from '../../platform/util/files.js';
import { RenderRepository } from './render-repository.js';

/**
 * The files (or folders) some capability keeps for these tasks, relative to the data directory.
 * Capabilities that import tasks (long-form's takes, the timeline's media) register one, since
 * tasks may not import them.
 */
export type TaskFiles = (taskIds: string[]) => string[];

export interface TaskRemovalDeps {
  db: Db;
  dataDir: string;
  log: Log;
}

/**
 * Deletes tasks with everything they own. Every file is listed before any row goes; the rows go in
 * one transaction (chunks, takes, timelines, media and renders by ON DELETE CASCADE, and the
 * tasks' finished jobs); then the files are removed. A crash between the two leaves only files that nothing
 * points at, never a row whose file is gone.
 */
export class TaskRemoval {
  private readonly describers: TaskFiles[] = [];
  private readonly dataDir: string;

  constructor(private readonly deps: TaskRemovalDeps) {
    this.dataDir = resolve(deps.dataDir);
    this.describeFiles((taskIds) => this.audioPathsOf(taskIds));
    const renders = new RenderRepository(deps.db);
    this.describeFiles((taskIds) => renders.pathsOf(taskIds));
  }

  describeFiles(describe: TaskFiles): void {
    this.describers.push(describe);
  }

  /** `alsoInTransaction` runs inside the rows' transaction (a project's own row, say), so both go or neither. */
  async remove(taskIds: string[], alsoInTransaction?: () => void): Promise<void> {
    const files = this.describers.flatMap((describe) => (taskIds.length === 0 ? [] : describe(taskIds)));
    const ids = JSON.stringify(taskIds);
    this.deps.db.transaction(() => {
      this.deps.db.prepare("DELETE FROM jobs WHERE task_id IN (SELECT value FROM json_each(?)) AND state NOT IN ('queued', 'running')").run(ids);
      this.deps.db.prepare('DELETE FROM tasks WHERE id IN (SELECT value FROM json_each(?))').run(ids);
      alsoInTransaction?.();
    })();
    const failures = await Promise.allSettled(files.map((file) => rm(resolveInside(this.dataDir, this.dataDir, file), { recursive: true, force: true })));
    const failed = failures.filter((result) => result.status === 'rejected');
    if (failed.length > 0) this.deps.log.warn({ files: failed.length }, 'files of deleted tasks could not be removed; they stay as orphans');
  }

  private audioPathsOf(taskIds: string[]): string[] {
    return this.deps.db
      .prepare<[string], { audio_path: string }>('SELECT audio_path FROM tasks WHERE id IN (SELECT value FROM json_each(?)) AND audio_path IS NOT NULL')
      .all(JSON.stringify(taskIds))
      .map((row) => row.audio_path);
  }
}
