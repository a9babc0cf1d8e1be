import { Value } from 'typebox/value';
import type { Position } from '../../platform/http/cursor.js';
import type { Db } from '../../platform/store/database.js';
import { EMPTY_SCRIPT, ProjectScriptSchema, type ProjectScript } from './schemas.js';

export interface ProjectRecord {
  id: string;
  ownerKeyId: string | null;
  name: string;
  script: ProjectScript;
  /** Pronunciation dictionaries the project's generations apply by default, in order. */
  pronunciationIds: string[];
  createdAt: string;
  updatedAt: string;
}

interface ProjectRow {
  id: string;
  owner_key_id: string | null;
  name: string;
  script: string;
  pronunciation_ids: string;
  created_at: string;
  updated_at: string;
}

/** A project as listed: the record with how many tasks it holds. */
export type ListedProject = ProjectRecord & { taskCount: number };

function idsOf(json: string): string[] {
  const ids: unknown = JSON.parse(json);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

function fromRow(row: ProjectRow): ProjectRecord {
  const script: unknown = JSON.parse(row.script);
  return {
    id: row.id,
    ownerKeyId: row.owner_key_id,
    name: row.name,
    script: Value.Check(ProjectScriptSchema, script) ? script : EMPTY_SCRIPT,
    pronunciationIds: idsOf(row.pronunciation_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Projects and their scripts (one JSON document each); tasks point at their project. */
export class ProjectRepository {
  constructor(private readonly db: Db) {}

  insert(project: ProjectRecord): void {
    this.db
      .prepare('INSERT INTO projects (id, owner_key_id, name, script, pronunciation_ids, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(
        project.id,
        project.ownerKeyId,
        project.name,
        JSON.stringify(project.script),
        JSON.stringify(project.pronunciationIds),
        project.createdAt,
        project.updatedAt,
      );
  }

  get(id: string): ProjectRecord | undefined {
    const row = this.db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE id = ?').get(id);
    return row ? fromRow(row) : undefined;
  }

  /**
   * At most `limit` projects of these owners, most recently changed first; `words` must all
   * appear (any case) in the name or the script.
   */
  list(owners: string[], options: { words: string[]; before?: Position; limit: number }): ListedProject[] {
    const conditions = [`owner_key_id IN (SELECT value FROM json_each(@owners))`];
    const values: Record<string, unknown> = { owners: JSON.stringify(owners), limit: options.limit };
    options.words.forEach((word, index) => {
      conditions.push(`(instr(lower(name), @w${index}) > 0 OR instr(lower(script), @w${index}) > 0)`);
      values[`w${index}`] = word.toLowerCase();
    });
    if (options.before) {
      conditions.push('(updated_at < @beforeAt OR (updated_at = @beforeAt AND id < @beforeId))');
      Object.assign(values, { beforeAt: options.before.at, beforeId: options.before.id });
    }
    const rows = this.db
      .prepare<Record<string, unknown>[], ProjectRow & { task_count: number }>(
        `SELECT p.*, (SELECT count(*) FROM tasks t WHERE t.project_id = p.id) AS task_count FROM projects p
         WHERE ${conditions.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT @limit`,
      )
      .all(values);
    return rows.map((row) => ({ ...fromRow(row), taskCount: row.task_count }));
  }

  /** Saves name, script and default dictionaries if the project still has `expectedUpdatedAt` (when given); false when it changed since. */
  update(id: string, changes: { name?: string; script?: ProjectScript; pronunciationIds?: string[] }, at: string, expectedUpdatedAt?: string): boolean {
    const result = this.db
      .prepare(
        `UPDATE projects SET name = coalesce(@name, name), script = coalesce(@script, script),
           pronunciation_ids = coalesce(@pronunciationIds, pronunciation_ids), updated_at = @at
         WHERE id = @id AND (@expected IS NULL OR updated_at = @expected)`,
      )
      .run({
        id,
        at,
        name: changes.name ?? null,
        script: changes.script ? JSON.stringify(changes.script) : null,
        pronunciationIds: changes.pronunciationIds ? JSON.stringify(changes.pronunciationIds) : null,
        expected: expectedUpdatedAt ?? null,
      });
    return result.changes === 1;
  }

  /** The project row; its tasks go with it (ON DELETE CASCADE), and with them their chunks, timelines and renders. */
  delete(id: string): void {
    this.db.prepare('DELETE FROM projects WHERE id = ?').run(id);
  }

  /** Marks the project changed (a task was filed in it), so it comes first in lists. */
  touch(id: string, at: string): void {
    this.db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(at, id);
  }
}
