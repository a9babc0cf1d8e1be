import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SystemService } from '../../../../src/features/system/index.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const DATABASE = { path: '/data/timbre.db', schema_version: 6, journal_mode: 'wal', size_bytes: 4096 };

describe('the system service', () => {
  test('status reports the data disk, the database and every registered section', async () => {
    const dir = await tempDir();
    try {
      const startedAt = new Date('2026-11-24T07:00:00.000Z');
      const system = new SystemService({ dataDir: dir, database: () => DATABASE, startedAt });
      system.registerStatusSection('queue', () => ({ running: 1, queued: 2 }));
      system.registerStatusSection('engine_host', async () => ({ busy: 0 }));
      const status = await system.status('key_test');
      assert.equal(status.status, 'ok');
      assert.equal(status.started_at, '2026-11-24T07:00:00.000Z');
      assert.equal(status.data_dir.path, dir);
      assert.ok(status.data_dir.free_bytes > 0 && status.data_dir.free_bytes <= status.data_dir.total_bytes);
      assert.deepEqual(status.database, { ok: true, ...DATABASE });
      const sections: Record<string, unknown> = status;
      assert.deepEqual([sections.queue, sections.engine_host], [{ running: 1, queued: 2 }, { busy: 0 }]);
    } finally {
      await removeDir(dir);
    }
  });

  test('a failing section shows its error and the rest still answers; no section may take a built-in name', async () => {
    const system = new SystemService({ dataDir: '/', database: () => DATABASE, startedAt: new Date() });
    system.registerStatusSection('storage', () => {
      throw new Error('disk I/O error');
    });
    system.registerStatusSection('queue', async () => ({ running: 0 }));
    const sections: Record<string, unknown> = await system.status('key_test');
    assert.deepEqual([sections.storage, sections.queue], [{ ok: false, error: 'disk I/O error' }, { running: 0 }]);
    assert.throws(() => system.registerStatusSection('database', () => ({})), /already has a section database/);
    assert.throws(() => system.registerStatusSection('queue', () => ({})), /already has a section queue/);
  });

  test('a database that cannot be read makes the status degraded instead of failing it', async () => {
    const system = new SystemService({
      dataDir: '/',
      database: () => {
        throw new Error('database disk image is malformed');
      },
      startedAt: new Date(),
    });
    const status = await system.status('key_test');
    assert.deepEqual([status.status, status.database], ['degraded', { ok: false, error: 'database disk image is malformed' }]);
  });

  test('info lists what the inventory reports and the versions', async () => {
    const system = new SystemService({ dataDir: '/', database: () => DATABASE, startedAt: new Date() });
    system.registerInventory(async () => ({ engines: [{ id: 'pico', available: true }], models: [] }));
    const info = await system.info();
    assert.deepEqual(info.engines, [{ id: 'pico', available: true }]);
    assert.equal(info.versions.node, process.versions.node);
    assert.ok(info.memory.total_bytes > 0);
  });
});
