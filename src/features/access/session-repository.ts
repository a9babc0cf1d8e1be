import { writeReturning, type Db } from '../../platform/store/database.js';
import { rowMapper, type RowOf } from '../../platform/store/rows.js';

/** A browser session or a sign-in link: the hash of its token, the key it acts as, when it ends. */
export interface StoredToken {
  tokenHash: string;
  keyId: string;
  expiresAt: string;
}

type TokenRow = RowOf<StoredToken>;

const fromRow = rowMapper<StoredToken>({});

/** Sessions and one-time sign-in links; both go with their key (foreign key, on delete cascade). */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  /** Adds a session and ends the oldest of its key's beyond the newest `keepPerKey`, together. */
  insertSession(token: StoredToken, createdAt: string, keepPerKey: number): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO sessions (token_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
        .run(token.tokenHash, token.keyId, createdAt, token.expiresAt);
      // rowid follows insertion, so it orders sessions opened within the same millisecond too.
      this.db
        .prepare('DELETE FROM sessions WHERE key_id = ? AND rowid NOT IN (SELECT rowid FROM sessions WHERE key_id = ? ORDER BY rowid DESC LIMIT ?)')
        .run(token.keyId, token.keyId, keepPerKey);
    })();
  }

  findSession(tokenHash: string): StoredToken | undefined {
    const row = this.db.prepare<[string], TokenRow>('SELECT token_hash, key_id, expires_at FROM sessions WHERE token_hash = ?').get(tokenHash);
    return row && fromRow(row);
  }

  deleteSession(tokenHash: string): void {
    this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }

  insertLink(token: StoredToken): void {
    this.db.prepare('INSERT INTO sign_in_links (token_hash, key_id, expires_at) VALUES (?, ?, ?)').run(token.tokenHash, token.keyId, token.expiresAt);
  }

  /** Removes the link as it is read, so it works once even when two requests race for it. */
  takeLink(tokenHash: string): StoredToken | undefined {
    const [row] = writeReturning(
      this.db.prepare<[string], TokenRow>('DELETE FROM sign_in_links WHERE token_hash = ? RETURNING token_hash, key_id, expires_at'),
      tokenHash,
    );
    return row && fromRow(row);
  }

  /** Drops what has expired; run whenever a session or link is made, so neither table grows without bound. */
  deleteExpired(now: string): void {
    this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now);
    this.db.prepare('DELETE FROM sign_in_links WHERE expires_at <= ?').run(now);
  }
}
