import type { Db } from '../../platform/store/database.js';
import { readRateLimits, readScopes, type RateLimits, type Scope } from './scopes.js';
import { rowMapper, type RowOf } from '../../platform/store/rows.js';

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
  /** Megabytes of stored files the key may hold (0: no limit); null follows TIMBRE_STORAGE_QUOTA_MB. */
  storageQuotaMb: number | null;
}

/** One link of a key's budget chain: the key itself, then the key that created it, and so on. */
export interface BudgetLink {
  keyId: string;
  rateLimits: RateLimits;
}

type ApiKeyRow = RowOf<ApiKeyRecord, 'scopes' | 'rateLimits'>;

const fromRow = rowMapper<ApiKeyRecord, 'scopes' | 'rateLimits'>({ scopes: readScopes, rateLimits: readRateLimits });

const linkFromRow = rowMapper<BudgetLink, 'rateLimits'>({ rateLimits: readRateLimits });

/** Deleted keys stay as rows while keys they created live on (see markDeleted); to the API they are gone. */
const LIVE = 'deleted_at IS NULL';

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  insert(record: ApiKeyRecord): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (key_id, name, prefix, secret_hash, scopes, rate_limits, created_at, last_used_at, revoked_at, created_by, storage_quota_mb)
         VALUES (@keyId, @name, @prefix, @secretHash, @scopes, @rateLimits, @createdAt, @lastUsedAt, @revokedAt, @createdBy, @storageQuotaMb)`,
      )
      .run({ ...record, scopes: JSON.stringify(record.scopes), rateLimits: JSON.stringify(record.rateLimits) });
  }

  // Keys made in the same millisecond list in the order they were made (rowid), not by their random ids.
  list(): ApiKeyRecord[] {
    const rows = this.db.prepare<[], ApiKeyRow>(`SELECT * FROM api_keys WHERE ${LIVE} ORDER BY created_at, api_keys.rowid`).all();
    return rows.map(fromRow);
  }

  /** The key and every live key below it (those it created, and theirs, through deleted ones too). */
  listLine(keyId: string): ApiKeyRecord[] {
    const rows = this.db
      .prepare<[string], ApiKeyRow>(
        `WITH RECURSIVE line (key_id) AS (
           SELECT key_id FROM api_keys WHERE key_id = ?
           UNION ALL
           SELECT k.key_id FROM api_keys k JOIN line ON k.created_by = line.key_id
         )
         SELECT api_keys.* FROM api_keys JOIN line USING (key_id) WHERE ${LIVE} ORDER BY created_at, api_keys.rowid`,
      )
      .all(keyId);
    return rows.map(fromRow);
  }

  findById(keyId: string): ApiKeyRecord | undefined {
    const row = this.db.prepare<[string], ApiKeyRow>(`SELECT * FROM api_keys WHERE key_id = ? AND ${LIVE}`).get(keyId);
    return row && fromRow(row);
  }

  findByPrefix(prefix: string): ApiKeyRecord[] {
    const rows = this.db.prepare<[string], ApiKeyRow>(`SELECT * FROM api_keys WHERE prefix = ? AND ${LIVE}`).all(prefix);
    return rows.map(fromRow);
  }

  /** Absent fields stay; a `storageQuotaMb` of null returns the key to the default quota. */
  update(keyId: string, changes: { name?: string; rateLimits?: RateLimits; storageQuotaMb?: number | null }): void {
    this.db
      .prepare(
        `UPDATE api_keys SET name = coalesce(@name, name), rate_limits = coalesce(@rateLimits, rate_limits),
           storage_quota_mb = iif(@setQuota, @storageQuotaMb, storage_quota_mb)
         WHERE key_id = @keyId`,
      )
      .run({
        keyId,
        name: changes.name ?? null,
        rateLimits: changes.rateLimits ? JSON.stringify(changes.rateLimits) : null,
        setQuota: changes.storageQuotaMb === undefined ? 0 : 1,
        storageQuotaMb: changes.storageQuotaMb ?? null,
      });
  }

  markUsed(keyId: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(at, keyId);
  }

  markRevoked(keyId: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?').run(at, keyId);
  }

  /** The key and every key created beneath it, at any depth: what a key owns, the keys above it own too. */
  keysBelow(keyId: string): string[] {
    return this.db
      .prepare<[string], { key_id: string }>(
        `WITH RECURSIVE below (key_id) AS (
           SELECT key_id FROM api_keys WHERE key_id = ?
           UNION
           SELECT k.key_id FROM api_keys k JOIN below ON k.created_by = below.key_id
         )
         SELECT key_id FROM below`,
      )
      .all(keyId)
      .map((row) => row.key_id);
  }

  /** The key and every key above it, nearest first, with the storage quota each names (null: the default). */
  quotaLine(keyId: string): { keyId: string; storageQuotaMb: number | null }[] {
    return this.db
      .prepare<[string], { key_id: string; storage_quota_mb: number | null }>(
        `WITH RECURSIVE line (key_id, storage_quota_mb, created_by, depth) AS (
           SELECT key_id, storage_quota_mb, created_by, 0 FROM api_keys WHERE key_id = ?
           UNION ALL
           SELECT k.key_id, k.storage_quota_mb, k.created_by, line.depth + 1 FROM api_keys k JOIN line ON k.key_id = line.created_by
         )
         SELECT key_id, storage_quota_mb FROM line ORDER BY depth`,
      )
      .all(keyId)
      .map((row) => ({ keyId: row.key_id, storageQuotaMb: row.storage_quota_mb }));
  }

  /**
   * The key and every key above it, nearest first, deleted ones included: a request is counted
   * against each of their budgets.
   */
  budgetChain(keyId: string): BudgetLink[] {
    const rows = this.db
      .prepare<[string], RowOf<BudgetLink, 'rateLimits'>>(
        `WITH RECURSIVE chain (key_id, rate_limits, created_by, depth) AS (
           SELECT key_id, rate_limits, created_by, 0 FROM api_keys WHERE key_id = ?
           UNION ALL
           SELECT k.key_id, k.rate_limits, k.created_by, chain.depth + 1 FROM api_keys k JOIN chain ON k.key_id = chain.created_by
         )
         SELECT key_id, rate_limits FROM chain ORDER BY depth`,
      )
      .all(keyId);
    return rows.map(linkFromRow);
  }

  /**
   * Removes a key. One that created keys still alive (or tombstones above them) stays as a tombstone
   * that limits them: a key cannot free the keys it made from its budget by deleting itself. A
   * tombstone goes with its last descendant.
   */
  delete(keyId: string, at: string): void {
    this.db.transaction(() => {
      const parent =
        this.db.prepare<[string], { created_by: string | null }>('SELECT created_by FROM api_keys WHERE key_id = ?').get(keyId)?.created_by ?? null;
      if (this.hasChildren(keyId)) {
        this.db.prepare('UPDATE api_keys SET deleted_at = coalesce(deleted_at, ?) WHERE key_id = ?').run(at, keyId);
        return;
      }
      this.db.prepare('DELETE FROM api_keys WHERE key_id = ?').run(keyId);
      // Tombstones above that no longer limit anyone go too.
      for (let above = parent; above !== null;) {
        const row = this.db
          .prepare<[string], { created_by: string | null; deleted_at: string | null }>('SELECT created_by, deleted_at FROM api_keys WHERE key_id = ?')
          .get(above);
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
