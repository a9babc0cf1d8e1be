import type { Db } from '../../platform/store/database.js';
import { rowMapper, type RowOf } from '../../platform/store/rows.js';

export interface CategoryRecord {
  id: string;
  name: string;
  createdAt: string;
  /** Voices in the category, counted on read. */
  voiceCount: number;
}

type CategoryRow = RowOf<CategoryRecord>;

const SELECT_CATEGORY = `SELECT c.id, c.name, c.created_at, (SELECT count(*) FROM voices v WHERE v.category_id = c.id) AS voice_count FROM categories c`;

const fromRow = rowMapper<CategoryRecord>({});

export class CategoryRepository {
  constructor(private readonly db: Db) {}

  list(): CategoryRecord[] {
    const rows = this.db.prepare<[], CategoryRow>(`${SELECT_CATEGORY} ORDER BY c.name COLLATE NOCASE, c.id`).all();
    return rows.map(fromRow);
  }

  findById(id: string): CategoryRecord | undefined {
    const row = this.db.prepare<[string], CategoryRow>(`${SELECT_CATEGORY} WHERE c.id = ?`).get(id);
    return row && fromRow(row);
  }

  /** Names are unique regardless of case (the column is COLLATE NOCASE). */
  findByName(name: string): CategoryRecord | undefined {
    const row = this.db.prepare<[string], CategoryRow>(`${SELECT_CATEGORY} WHERE c.name = ?`).get(name);
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
