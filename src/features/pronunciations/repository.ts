import { Value } from 'typebox/value';
import type { Db } from '../../platform/store/database.js';
import { StoredRuleSchema, type StoredRule } from './schemas.js';

export interface DictionaryRecord {
  id: string;
  ownerKeyId: string | null;
  name: string;
  language: string;
  rules: StoredRule[];
  ruleCount: number;
  createdAt: string;
  updatedAt: string;
}

export type DictionarySummary = Omit<DictionaryRecord, 'rules'>;

interface DictionaryRow {
  id: string;
  owner_key_id: string | null;
  name: string;
  language: string;
  rules: string;
  rule_count: number;
  created_at: string;
  updated_at: string;
}

function summaryOf(row: Omit<DictionaryRow, 'rules'>): DictionarySummary {
  return {
    id: row.id,
    ownerKeyId: row.owner_key_id,
    name: row.name,
    language: row.language,
    ruleCount: row.rule_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function rulesOf(json: string): StoredRule[] {
  const rules: unknown = JSON.parse(json);
  return Array.isArray(rules) ? rules.filter((rule): rule is StoredRule => Value.Check(StoredRuleSchema, rule)) : [];
}

/** Tables that name dictionaries as their defaults, in a `pronunciation_ids` JSON array. */
const DEFAULT_HOLDERS = ['voices', 'projects'] as const;

/** Pronunciation dictionaries, their rules one JSON array each (a dictionary is read, written and applied whole). */
export class PronunciationRepository {
  constructor(private readonly db: Db) {}

  insert(record: DictionaryRecord): void {
    this.db
      .prepare(
        `INSERT INTO pronunciation_dictionaries (id, owner_key_id, name, language, rules, rule_count, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(record.id, record.ownerKeyId, record.name, record.language, JSON.stringify(record.rules), record.rules.length, record.createdAt, record.updatedAt);
  }

  get(id: string): DictionaryRecord | undefined {
    const row = this.db.prepare<[string], DictionaryRow>('SELECT * FROM pronunciation_dictionaries WHERE id = ?').get(id);
    return row ? { ...summaryOf(row), rules: rulesOf(row.rules) } : undefined;
  }

  /** When the dictionary last changed, without reading its rules. */
  updatedAt(id: string): { ownerKeyId: string | null; updatedAt: string } | undefined {
    const row = this.db
      .prepare<[string], { owner_key_id: string | null; updated_at: string }>('SELECT owner_key_id, updated_at FROM pronunciation_dictionaries WHERE id = ?')
      .get(id);
    return row ? { ownerKeyId: row.owner_key_id, updatedAt: row.updated_at } : undefined;
  }

  /** The dictionaries of these owners, most recently changed first. */
  list(owners: string[]): DictionarySummary[] {
    return this.db
      .prepare<[string], Omit<DictionaryRow, 'rules'>>(
        `SELECT id, owner_key_id, name, language, rule_count, created_at, updated_at FROM pronunciation_dictionaries
         WHERE owner_key_id IN (SELECT value FROM json_each(?)) ORDER BY updated_at DESC, id DESC`,
      )
      .all(JSON.stringify(owners))
      .map(summaryOf);
  }

  update(id: string, changes: { name?: string; language?: string; rules?: StoredRule[] }, at: string): void {
    this.db
      .prepare(
        `UPDATE pronunciation_dictionaries SET name = coalesce(@name, name), language = coalesce(@language, language),
           rules = coalesce(@rules, rules), rule_count = coalesce(@ruleCount, rule_count), updated_at = @at WHERE id = @id`,
      )
      .run({
        id,
        at,
        name: changes.name ?? null,
        language: changes.language ?? null,
        rules: changes.rules ? JSON.stringify(changes.rules) : null,
        ruleCount: changes.rules?.length ?? null,
      });
  }

  /** The dictionaries a voice or project applies by default, in order; none for one that is not stored. */
  defaultsOf(table: (typeof DEFAULT_HOLDERS)[number], id: string): string[] {
    const json = this.db.prepare<[string], string>(`SELECT pronunciation_ids FROM ${table} WHERE id = ?`).pluck().get(id);
    const ids: unknown = json === undefined ? [] : JSON.parse(json);
    return Array.isArray(ids) ? ids.filter((value): value is string => typeof value === 'string') : [];
  }

  /** Deletes the dictionary and takes it off every voice's and project's defaults, in one transaction. */
  delete(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM pronunciation_dictionaries WHERE id = ?').run(id);
      for (const table of DEFAULT_HOLDERS) {
        this.db
          .prepare(
            `UPDATE ${table} SET pronunciation_ids = (SELECT json_group_array(value) FROM json_each(pronunciation_ids) WHERE value != @id)
             WHERE EXISTS (SELECT 1 FROM json_each(pronunciation_ids) WHERE value = @id)`,
          )
          .run({ id });
      }
    })();
  }
}
