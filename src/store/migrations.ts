/**
 * Schema versions, applied in order at start. A migration is never edited once released:
 * changes go into a new entry so existing data directories upgrade in place.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'api keys',
    sql: `
      CREATE TABLE api_keys (
        key_id       TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        prefix       TEXT NOT NULL,
        secret_hash  TEXT NOT NULL UNIQUE,
        scopes       TEXT NOT NULL,
        rate_limits  TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at   TEXT
      );
      CREATE INDEX api_keys_prefix ON api_keys (prefix);
    `,
  },
];
