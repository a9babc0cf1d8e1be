import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isStorageFull } from '../storage-full.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export const DATABASE_FILE = 'timbre.db';

/**
 * Opens (creating if needed) the database in the data directory and brings its schema up to date.
 *
 * On a full disk a WAL database whose last user closed it cleanly cannot be opened the usual way:
 * SQLite must create its shared-memory index (`timbre.db-shm`) and finds no room. It is then
 * opened in exclusive locking mode, where SQLite keeps that index in memory: reads work, writes
 * fail as the disk is full, and other processes (the `timbre keys` commands) cannot use the
 * database until this connection closes.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    return open(dataDir, 'normal');
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    return open(dataDir, 'exclusive');
  }
}

function open(dataDir: string, locking: 'normal' | 'exclusive'): Db {
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    // Before the first read: only then does SQLite keep the WAL index out of shared memory.
    if (locking === 'exclusive') db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // better-sqlite3 builds SQLite with NORMAL as the WAL default: a commit reaches the disk only at the
    // next checkpoint, so an answered write could be lost to a power cut. FULL syncs the log at every
    // commit (about 0.4 ms measured), so a write that was answered is on the disk.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The rows of a write that answers some (`UPDATE … RETURNING`). Never `.get()` such a statement:
 * better-sqlite3's `get()` stops at the first row and ignores how the statement ends, and with it a
 * commit the disk refused, so a write rolled back for lack of space would be answered as done.
 * `all()` runs the statement to its end and throws that failure.
 */
export function writeReturning<Params extends unknown[], Row>(statement: Database.Statement<Params, Row>, ...params: Params): Row[] {
  return statement.all(...params);
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db): void {
  const current = schemaVersion(db);
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(`The database schema (version ${current}) is newer than this Timbre (version ${latest}); upgrade Timbre`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}

export interface DatabaseInfo {
  path: string;
  schema_version: number;
  journal_mode: string;
  size_bytes: number;
}

export function describeDatabase(db: Db): DatabaseInfo {
  const pageCount = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return {
    path: db.name,
    schema_version: schemaVersion(db),
    journal_mode: db.pragma('journal_mode', { simple: true }) as string,
    size_bytes: pageCount * pageSize,
  };
}
