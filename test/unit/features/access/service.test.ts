import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { EventBus } from '../../../../src/platform/events.js';
import { createLog } from '../../../../src/platform/log.js';
import { KeyService } from '../../../../src/features/access/service.js';
import { ApiKeyRepository } from '../../../../src/features/access/repository.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('KeyService', () => {
  let dir: string;
  let db: Db;
  let keys: KeyService;

  beforeEach(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    keys = new KeyService(new ApiKeyRepository(db), new EventBus(createLog('silent')), createLog('silent'));
  });
  after(async () => {
    db.close();
    await removeDir(dir);
  });

  test('only the hash of a key is stored', () => {
    const { secret } = keys.create({ name: 'app' });
    const rows = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    assert.ok(!rows.includes(secret));
    assert.ok(!rows.includes(secret.slice(12)));
  });

  test('authenticate accepts the key and refuses near misses, revoked and deleted keys', () => {
    const { secret, record } = keys.create({ name: 'app' });
    assert.equal(keys.authenticate(secret).keyId, record.keyId);
    assert.equal(
      code(() => keys.authenticate(undefined)),
      'missing_api_key',
    );
    assert.equal(
      code(() => keys.authenticate(`${secret}x`)),
      'invalid_api_key',
    );
    assert.equal(
      code(() => keys.authenticate(secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))),
      'invalid_api_key',
    );
    keys.revoke(record.keyId);
    assert.equal(
      code(() => keys.authenticate(secret)),
      'key_revoked',
    );
    keys.delete(record.keyId);
    assert.equal(
      code(() => keys.authenticate(secret)),
      'invalid_api_key',
    );
  });

  test('authenticate records when a key was last used', () => {
    const { secret, record } = keys.create({ name: 'app' });
    assert.equal(record.lastUsedAt, null);
    keys.authenticate(secret);
    assert.ok(keys.get(record.keyId).lastUsedAt);
  });

  test('limits are the defaults, explicit ones, and never above the creator’s', () => {
    const { record: creator } = keys.create({ name: 'creator', scopes: ['system:read', 'tts:generate'], rateLimits: { 'tts:generate': 5 } });
    assert.deepEqual(creator.rateLimits, { 'system:read': 60, 'tts:generate': 5 });
    const { record: child } = keys.create({ name: 'child' }, creator);
    assert.deepEqual(child.rateLimits, { 'system:read': 60, 'tts:generate': 5 });
    assert.equal(
      code(() => keys.create({ name: 'x', rateLimits: { 'tts:generate': 6 } }, creator)),
      'rate_limit_escalation',
    );
    assert.equal(
      code(() => keys.create({ name: 'x', scopes: ['clone:create'] }, creator)),
      'scope_escalation',
    );
    assert.equal(
      code(() => keys.create({ name: 'x', scopes: ['system:read'], rateLimits: { 'tts:generate': 1 } }, creator)),
      'invalid_request',
    );
  });

  test('the bootstrap key is created once and must be well formed', () => {
    const secret = `tmb_${'x'.repeat(43)}`;
    assert.equal(keys.ensureBootstrapKey(secret).created, true);
    assert.equal(keys.ensureBootstrapKey(secret).created, false);
    assert.equal(keys.list().length, 1);
    assert.equal(
      code(() => keys.ensureBootstrapKey('tmb_short')),
      'invalid_api_key',
    );
  });
});
