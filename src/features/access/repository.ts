import type { Db } from '../../platform/store/database.js';
import type { RateLimits, Scope } from './scopes.js';

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  prefix: string;
  secretHash: string;
  scopes: Scope[];
  rateLimits: RateLimits;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The key that created this one through the API, whose budget it shares; null for the owner's keys. */
  createdBy: string | null;
}

/** One link of a key's budget chain: the key itself, then the key that created it, and so on. */
export interface BudgetLink {
  keyId: string;
  rateLimits: RateLimits;
}

interface ApiKeyRow {
  key_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: string;
  rate_limits: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_by: string | null;
}

function fromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    name: row.name,
    prefix: row.prefix,
    secretHash: row.secret_hash,
    scopes: JSON.parse(row.scopes) as Scope[],
    rateLimits: JSON.parse(row.rate_limits) as RateLimits,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    createdBy: row.created_by,
  };
}

/** Deleted keys stay as rows while keys they created live on (see markDeleted); to the API they are gone. */
const LIVE = 'deleted_at IS NULL';

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  insert(record: ApiKeyRecord): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (key_id, name, prefix, secret_hash, scopes, rate_limits, created_at, last_used_at, revoked_at, created_by)
         VALUES (@keyId, @name, @prefix, @secretHash, @scopes, @rateLimits, @createdAt, @lastUsedAt, @revokedAt, @createdBy)`,
      )
      .run({ ...record, scopes: JSON.stringify(record.scopes), rateLimits: JSON.stringify(record.rateLimits) });
  }

  list(): ApiKeyRecord[] {
    const rows = this.db.prepare(`SELECT * FROM api_keys WHERE ${LIVE} ORDER BY created_at, key_id`).all() as ApiKeyRow[];
    return rows.map(fromRow);
  }

  /** The key and every live key below it (those it created, and theirs, through deleted ones too). */
  listLine(keyId: string): ApiKeyRecord[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE line (key_id) AS (
           SELECT key_id FROM api_keys WHERE key_id = ?
           UNION ALL
           SELECT k.key_id FROM api_keys k JOIN line ON k.created_by = line.key_id
         )
         SELECT api_keys.* FROM api_keys JOIN line USING (key_id) WHERE ${LIVE} ORDER BY created_at, key_id`,
      )
      .all(keyId) as ApiKeyRow[];
    return rows.map(fromRow);
  }

  findById(keyId: string): ApiKeyRecord | undefined {
    const row = this.db.prepare(`SELECT * FROM api_keys WHERE key_id = ? AND ${LIVE}`).get(keyId) as ApiKeyRow | undefined;
    return row && fromRow(row);
  }

  findByPrefix(prefix: string): ApiKeyRecord[] {
    const rows = this.db.prepare(`SELECT * FROM api_keys WHERE prefix = ? AND ${LIVE}`).all(prefix) as ApiKeyRow[];
    return rows.map(fromRow);
  }

  update(keyId: string, changes: { name?: string; rateLimits?: RateLimits }): void {
    this.db
      .prepare(
        `UPDATE api_keys SET name = coalesce(@name, name), rate_limits = coalesce(@rateLimits, rate_limits)
         WHERE key_id = @keyId`,
      )
      .run({
        keyId,
        name: changes.name ?? null,
        rateLimits: changes.rateLimits ? JSON.stringify(changes.rateLimits) : null,
      });
  }

  markUsed(keyId: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(at, keyId);
  }

  markRevoked(keyId: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?').run(at, keyId);
  }

  /**
   * The key and every key above it, nearest first, deleted ones included: a request is counted
   * against each of their budgets.
   */
  budgetChain(keyId: string): BudgetLink[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE chain (key_id, rate_limits, created_by, depth) AS (
           SELECT key_id, rate_limits, created_by, 0 FROM api_keys WHERE key_id = ?
           UNION ALL
           SELECT k.key_id, k.rate_limits, k.created_by, chain.depth + 1 FROM api_keys k JOIN chain ON k.key_id = chain.created_by
         )
         SELECT key_id, rate_limits FROM chain ORDER BY depth`,
      )
      .all(keyId) as { key_id: string; rate_limits: string }[];
    return rows.map((row) => ({ keyId: row.key_id, rateLimits: JSON.parse(row.rate_limits) as RateLimits }));
  }

  /**
   * Removes a key. One that created keys still alive (or tombstones above them) stays as a tombstone
   * that limits them: a key cannot free the keys it made from its budget by deleting itself. A
   * tombstone goes with its last descendant.
   */
  delete(keyId: string, at: string): void {
    this.db.transaction(() => {
      const parent =
        (this.db.prepare('SELECT created_by FROM api_keys WHERE key_id = ?').get(keyId) as { created_by: string | null } | undefined)?.created_by ?? null;
      if (this.hasChildren(keyId)) {
        this.db.prepare('UPDATE api_keys SET deleted_at = coalesce(deleted_at, ?) WHERE key_id = ?').run(at, keyId);
        return;
      }
      this.db.prepare('DELETE FROM api_keys WHERE key_id = ?').run(keyId);
      // Tombstones above that no longer limit anyone go too.
      for (let above = parent; above !== null;) {
        const row = this.db.prepare('SELECT created_by, deleted_at FROM api_keys WHERE key_id = ?').get(above) as
          { created_by: string | null; deleted_at: string | null } | undefined;
        if (!row || row.deleted_at === null || this.hasChildren(above)) return;
        this.db.prepare('DELETE FROM api_keys WHERE key_id = ?').run(above);
        above = row.created_by;
      }
    })();
  }

  private hasChildren(keyId: string): boolean {
    return this.db.prepare('SELECT 1 FROM api_keys WHERE created_by = ? LIMIT 1').get(keyId) !== undefined;
  }
}
