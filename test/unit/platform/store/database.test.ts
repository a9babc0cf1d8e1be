import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, writeReturning, type Db } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

describe('the database', () => {
  let dir: string;
  let db: Db;

  before(async () => {
    dir = await tempDir();
    openDatabase(dir).close();
    // Opened again: SQLite then applies better-sqlite3's WAL default (NORMAL) unless Timbre sets its own.
    db = openDatabase(dir);
  });

  after(async () => {
    db.close();
    await removeDir(dir);
  });

  test('every commit syncs the write-ahead log (synchronous=FULL), so an answered write survives a power cut', () => {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), 2);
  });

  test('a write answering rows reports a commit that fails, which get() would have swallowed', () => {
    // A deferred constraint is checked when the statement commits, as a full disk refuses the commit.
    db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
             CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
    const insert = () => db.prepare('INSERT INTO children (id, parent) VALUES (1, 99) RETURNING id');
    assert.deepEqual(insert().get(), { id: 1 }, 'get() answers the row of a commit that failed');
    assert.equal(db.prepare('SELECT count(*) AS n FROM children').pluck().get(), 0, '…and nothing was written');
    assert.throws(() => writeReturning(insert()), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    assert.equal(db.prepare('SELECT count(*) AS n FROM children').pluck().get(), 0);
  });
});
