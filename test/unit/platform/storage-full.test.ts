import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ApiError, EngineError } from '../../../src/platform/errors.js';
import { toJobError } from '../../../src/platform/jobs/records.js';
import { createLog } from '../../../src/platform/log.js';
import { EventBus } from '../../../src/platform/events.js';
import { KeyService } from '../../../src/features/access/service.js';
import { insufficientStorage, isStorageFull } from '../../../src/platform/storage-full.js';
import { ApiKeyRepository } from '../../../src/features/access/repository.js';
import { openDatabase, type Db } from '../../../src/platform/store/database.js';
import { KeptWrites } from '../../../src/platform/store/kept-writes.js';
import { removeDir, tempDir } from '../../helpers/timbre.js';

const quiet = createLog('silent');

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error('timed out');
    await sleep(5);
  }
}
const sqliteFull = () => new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
const errno = (code: string) => Object.assign(new Error(`${code}: write`), { code });

describe('isStorageFull', () => {
  test('SQLite and file-system errors that mean no space are recognised; others are not', () => {
    assert.equal(isStorageFull(sqliteFull()), true);
    assert.equal(isStorageFull(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_SHMSIZE')), true);
    assert.equal(isStorageFull(errno('ENOSPC')), true);
    assert.equal(isStorageFull(errno('EDQUOT')), true);
    assert.equal(isStorageFull(insufficientStorage()), true);
    assert.equal(isStorageFull(new Database.SqliteError('database is locked', 'SQLITE_BUSY')), false);
    assert.equal(isStorageFull(new Database.SqliteError('constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')), false);
    assert.equal(isStorageFull(errno('ENOENT')), false);
    assert.equal(isStorageFull(new ApiError(503, 'queue_full', 'full queue')), false);
    assert.equal(isStorageFull('ENOSPC'), false);
  });

  test('the 507 carries no path, and a job that ran out of space fails with its code and status', () => {
    const error = insufficientStorage();
    assert.equal(error.statusCode, 507);
    assert.equal(error.code, 'insufficient_storage');
    assert.deepEqual(error.details, {});
    for (const cause of [sqliteFull(), errno('ENOSPC'), error]) {
      assert.deepEqual({ ...toJobError(cause), message: '' }, { code: 'insufficient_storage', message: '', details: {}, status: 507 });
    }
    assert.equal(toJobError(new EngineError('engine_failed', 'no')).code, 'engine_failed');
  });
});

describe('KeptWrites', () => {
  let kept: KeptWrites;
  let full: boolean;
  let written: [string, number][];
  const channel = () =>
    kept.channel<number>('counter', {
      write: (key, value) => {
        if (full) throw sqliteFull();
        written.push([key, value]);
      },
      merge: (older, newer) => older + newer,
    });

  beforeEach(() => {
    kept = new KeptWrites(quiet, { retryMs: 60_000 });
    full = false;
    written = [];
  });
  afterEach(() => kept.close());

  test('a write goes straight through while there is room', () => {
    const counters = channel();
    counters.write('a', 1);
    assert.deepEqual(written, [['a', 1]]);
    assert.equal(counters.kept('a'), undefined);
    assert.equal(kept.size, 0);
  });

  test('on a full disk the value waits in memory, merged, readable, and lands in order once there is room', () => {
    const counters = channel();
    full = true;
    counters.write('a', 1);
    counters.write('b', 10);
    counters.write('a', 2);
    assert.equal(counters.kept('a'), 3);
    assert.equal(kept.size, 2);
    kept.retry();
    assert.equal(kept.size, 2, 'still full: nothing is lost');
    full = false;
    kept.retry();
    assert.deepEqual(written, [
      ['b', 10],
      ['a', 3],
    ]);
    assert.equal(kept.size, 0);
    assert.equal(counters.kept('a'), undefined);
  });

  test('a new write for a waiting key carries the waiting value with it', () => {
    const counters = channel();
    full = true;
    counters.write('a', 1);
    full = false;
    counters.write('a', 5);
    assert.deepEqual(written, [['a', 6]]);
    assert.equal(kept.size, 0);
  });

  test('a failure that waiting cannot mend is logged and dropped, never thrown', () => {
    const broken = kept.channel<number>('broken', {
      write: () => {
        throw new Database.SqliteError('constraint failed', 'SQLITE_CONSTRAINT');
      },
      merge: (_, newer) => newer,
    });
    assert.doesNotThrow(() => broken.write('a', 1));
    assert.equal(kept.size, 0);
  });

  test('writeKept writes what waits now, for a request that needs it, and throws as the write does', () => {
    const counters = channel();
    full = true;
    counters.write('a', 1);
    assert.throws(
      () => counters.writeKept('a'),
      (error) => isStorageFull(error),
    );
    assert.equal(counters.kept('a'), 1, 'still waiting');
    full = false;
    counters.writeKept('a');
    assert.deepEqual(written, [['a', 1]]);
    assert.equal(kept.size, 0);
    assert.doesNotThrow(() => counters.writeKept('b'), 'nothing waits for b');
  });

  test('work waiting for room goes on at a retry once the kept writes have landed and the disk reports room, once', async () => {
    let room = false;
    let resumed = 0;
    const retrying = new KeptWrites(quiet, { retryMs: 5, hasRoom: async () => room });
    const counters = retrying.channel<number>('counter', {
      write: (key, value) => {
        if (full) throw sqliteFull();
        written.push([key, value]);
      },
      merge: (older, newer) => older + newer,
    });
    full = true;
    counters.write('a', 1);
    retrying.whenRoom('task', () => resumed++);
    assert.equal(resumed, 0, 'never at once');
    await sleep(50);
    assert.equal(resumed, 0, 'not while writes wait for room');
    full = false;
    await until(() => retrying.size === 0);
    await sleep(50);
    assert.equal(resumed, 0, 'not while the file system reports no room');
    room = true;
    await until(() => resumed === 1);
    await sleep(50);
    assert.equal(resumed, 1, 'once');
    retrying.close();
  });

  test('a resume that finds the disk full again waits for the next retry; other failures are logged and dropped', async () => {
    let attempts = 0;
    const retrying = new KeptWrites(quiet, { retryMs: 5 });
    retrying.whenRoom('full again', () => {
      attempts++;
      if (attempts === 1) throw sqliteFull();
    });
    retrying.whenRoom('broken', () => {
      throw new Error('a defect');
    });
    await until(() => attempts === 2);
    await sleep(50);
    assert.equal(attempts, 2);
    retrying.close();
  });
});

describe('EventBus', () => {
  test('a listener that throws neither reaches the publisher nor silences the listeners after it', () => {
    const events = new EventBus(quiet);
    const heard: string[] = [];
    events.subscribe(() => {
      throw sqliteFull();
    });
    events.subscribe((event) => heard.push(event.type));
    assert.doesNotThrow(() => events.publish({ type: 'key.updated', data: { key_id: 'key_1' }, audience: { internal: true } }));
    assert.deepEqual(heard, ['key.updated']);
  });
});

describe('KeyService on a full disk', () => {
  /** The real repository, whose last-use write fails as on a full disk and is counted. */
  class FullDiskKeys extends ApiKeyRepository {
    lastUseWrites = 0;
    override markUsed(): void {
      this.lastUseWrites += 1;
      throw sqliteFull();
    }
  }
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
  });
  afterEach(async () => {
    mock.timers.reset();
    db.close();
    await removeDir(dir);
  });

  test('authenticate answers although last_used_at cannot be written, and tries at most once a minute per key', () => {
    mock.timers.enable({ apis: ['Date'], now: Date.parse('2024-05-01T12:00:00Z') });
    const repository = new FullDiskKeys(db);
    const keys = new KeyService(repository, new EventBus(quiet), quiet);
    const { secret, record } = keys.create({ name: 'reader' });
    for (let i = 0; i < 5; i++) assert.equal(keys.authenticate(secret).keyId, record.keyId);
    assert.equal(repository.lastUseWrites, 1);
    mock.timers.tick(59_000);
    keys.authenticate(secret);
    assert.equal(repository.lastUseWrites, 1);
    mock.timers.tick(1_000);
    keys.authenticate(secret);
    assert.equal(repository.lastUseWrites, 2);
  });
});
