import type { Db } from './database.js';
import type { RateLimits, Scope } from '../services/scopes.js';

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
  };
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  insert(record: ApiKeyRecord): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (key_id, name, prefix, secret_hash, scopes, rate_limits, created_at, last_used_at, revoked_at)
         VALUES (@keyId, @name, @prefix, @secretHash, @scopes, @rateLimits, @createdAt, @lastUsedAt, @revokedAt)`,
      )
      .run({ ...record, scopes: JSON.stringify(record.scopes), rateLimits: JSON.stringify(record.rateLimits) });
  }

  list(): ApiKeyRecord[] {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, key_id').all() as ApiKeyRow[];
    return rows.map(fromRow);
  }

  findById(keyId: string): ApiKeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE key_id = ?').get(keyId) as ApiKeyRow | undefined;
    return row && fromRow(row);
  }

  findByPrefix(prefix: string): ApiKeyRecord[] {
    const rows = this.db.prepare('SELECT * FROM api_keys WHERE prefix = ?').all(prefix) as ApiKeyRow[];
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

  delete(keyId: string): boolean {
    return this.db.prepare('DELETE FROM api_keys WHERE key_id = ?').run(keyId).changes > 0;
  }
}
