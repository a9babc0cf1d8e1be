import type { Db } from '../../platform/store/database.js';

export interface CategoryRecord {
  id: string;
  name: string;
  createdAt: string;
  /** Voices in the category, counted on read. */
  voiceCount: number;
}

interface CategoryRow {
  id: string;
  name: string;
  created_at: string;
  voice_count: number;
}

const SELECT_CATEGORY = `SELECT c.id, c.name, c.created_at, (SELECT count(*) FROM voices v WHERE v.category_id = c.id) AS voice_count FROM categories c`;

function fromRow(row: CategoryRow): CategoryRecord {
  return { id: row.id, name: row.name, createdAt: row.created_at, voiceCount: row.voice_count };
}

export class CategoryRepository {
  constructor(private readonly db: Db) {}

  list(): CategoryRecord[] {
    const rows = this.db.prepare(`${SELECT_CATEGORY} ORDER BY c.name COLLATE NOCASE, c.id`).all() as CategoryRow[];
    return rows.map(fromRow);
  }

  findById(id: string): CategoryRecord | undefined {
    const row = this.db.prepare(`${SELECT_CATEGORY} WHERE c.id = ?`).get(id) as CategoryRow | undefined;
    return row && fromRow(row);
  }

  /** Names are unique regardless of case (the column is COLLATE NOCASE). */
  findByName(name: string): CategoryRecord | undefined {
    const row = this.db.prepare(`${SELECT_CATEGORY} WHERE c.name = ?`).get(name) as CategoryRow | undefined;
    return row && fromRow(row);
  }

  insert(category: { id: string; name: string; createdAt: string }): void {
    this.db.prepare('INSERT INTO categories (id, name, created_at) VALUES (@id, @name, @createdAt)').run(category);
  }

  /** Voices of the category keep existing, uncategorised (ON DELETE SET NULL). */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM categories WHERE id = ?').run(id).changes > 0;
  }
}
