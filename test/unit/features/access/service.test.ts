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
    assert.deepEqual(creator.rateLimits, { 'system:read': 60, 'tts:generate': 5, task_reads: 300 });
    const { record: child } = keys.create({ name: 'child' }, creator);
    assert.deepEqual(child.rateLimits, { 'system:read': 60, 'tts:generate': 5, task_reads: 300 });
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

  test('a key holding tts:generate has the task_reads budget at 300 by default; minted keys inherit its ceiling; it is no scope', () => {
    const { record: full } = keys.create({ name: 'full' });
    assert.equal(full.rateLimits.task_reads, 300);
    assert.ok(!full.scopes.some((scope) => String(scope) === 'task_reads'), 'task_reads is a budget, not a scope');
    const { record: reader } = keys.create({ name: 'reader', scopes: ['tts:generate'], rateLimits: { task_reads: 50 } });
    assert.deepEqual(reader.rateLimits, { 'tts:generate': 10, task_reads: 50 });
    assert.equal(keys.create({ name: 'child' }, reader).record.rateLimits.task_reads, 50, 'the default is capped at the creator’s');
    assert.equal(
      code(() => keys.create({ name: 'x', rateLimits: { task_reads: 51 } }, reader)),
      'rate_limit_escalation',
    );
    assert.equal(
      code(() => keys.update(reader.keyId, { rateLimits: { task_reads: 51 } }, reader)),
      'rate_limit_escalation',
    );
    const { record: voicesOnly } = keys.create({ name: 'voices', scopes: ['voices:read'] });
    assert.deepEqual(voicesOnly.rateLimits, { 'voices:read': 60 }, 'without tts:generate there are no task reads to count');
    assert.equal(
      code(() => keys.create({ name: 'x', scopes: ['voices:read'], rateLimits: { task_reads: 5 } })),
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

  /**
   * A line: `top` made by the owner; `parent` by top; the caller by parent; `child` by the caller,
   * `grandchild` by child; `sibling` by parent; `stranger` another root the owner made.
   */
  function line() {
    const top = keys.create({ name: 'top' }).record;
    const parent = keys.create({ name: 'parent' }, top).record;
    const caller = keys.create({ name: 'caller' }, parent).record;
    const child = keys.create({ name: 'child' }, caller).record;
    const grandchild = keys.create({ name: 'grandchild' }, child).record;
    const sibling = keys.create({ name: 'sibling' }, parent).record;
    const stranger = keys.create({ name: 'stranger' }).record;
    return { caller, targets: { self: caller, child, grandchild, parent, top, sibling, stranger } };
  }

  test('a key lists only itself and the keys below it; the owner lists every key', () => {
    const { caller, targets } = line();
    assert.deepEqual(
      keys.list(caller).map((key) => key.name),
      ['caller', 'child', 'grandchild'],
    );
    assert.deepEqual(
      keys.list(targets.sibling).map((key) => key.name),
      ['sibling'],
      'keys minted by the same key do not see each other',
    );
    assert.equal(keys.list().length, 7);
  });

  test('keys made by a deleted key stay in its creator’s line', () => {
    const { caller, targets } = line();
    keys.delete(targets.child.keyId, caller);
    assert.deepEqual(
      keys.list(caller).map((key) => key.name),
      ['caller', 'grandchild'],
    );
    assert.equal(keys.revoke(targets.grandchild.keyId, caller).keyId, targets.grandchild.keyId);
  });
});
