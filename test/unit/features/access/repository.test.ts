import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ApiKeyRepository } from '../../../../src/features/access/repository.js';
import { DATABASE_FILE, openDatabase } from '../../../../src/platform/store/database.js';
import { MIGRATIONS } from '../../../../src/platform/store/migrations.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

describe('ApiKeyRepository on a database from before the task_reads budget', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
    // The schema as it was before task_reads (version 8), with a full key and a voices-only key.
    const old = new Database(join(dir, DATABASE_FILE));
    for (const migration of MIGRATIONS.filter((entry) => entry.version <= 8)) old.exec(migration.sql);
    old.pragma('user_version = 8');
    const insert = old.prepare(
      `INSERT INTO api_keys (key_id, name, prefix, secret_hash, scopes, rate_limits, created_at) VALUES (?, ?, 'tmb_x', ?, ?, ?, '2025-01-01T00:00:00.000Z')`,
    );
    insert.run('key_full', 'full', 'a', '["tts:generate","system:read"]', '{"tts:generate":10,"system:read":60}');
    insert.run('key_voices', 'voices', 'b', '["voices:read"]', '{"voices:read":60}');
    old.close();
  });
  after(async () => removeDir(dir));

  test('keys holding tts:generate get task_reads at its default; others keep their limits', () => {
    const db = openDatabase(dir);
    try {
      const keys = new ApiKeyRepository(db);
      assert.deepEqual(keys.findById('key_full')?.rateLimits, { 'tts:generate': 10, 'system:read': 60, task_reads: 300 });
      assert.deepEqual(keys.findById('key_voices')?.rateLimits, { 'voices:read': 60 });
    } finally {
      db.close();
    }
  });
});
