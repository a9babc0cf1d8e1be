// Black-box (the service as a process): the CLI itself is under test.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { ALL_SCOPES } from '../../../src/features/access/scopes.js';
import { cli, createKeyWithCli, removeDir, request, startTimbre, tempDir } from '../../helpers/timbre.js';

describe('timbre CLI and bootstrap key', () => {
  test('keys create prints a working key once; keys list shows it without the secret', async () => {
    const dataDir = await tempDir();
    const plain = await cli(['keys', 'create', '--name', 'desk', '--scopes', 'system:read,voices:read', '--data-dir', dataDir]);
    assert.equal(plain.code, 0, plain.stderr);
    const key = /tmb_[A-Za-z0-9_-]{43,}/.exec(plain.stdout)?.[0];
    assert.ok(key, plain.stdout);
    const listed = await cli(['keys', 'list', '--data-dir', dataDir, '--json']);
    assert.ok(!listed.stdout.includes(key));
    const [record] = JSON.parse(listed.stdout);
    assert.deepEqual(record.scopes, ['system:read', 'voices:read']);

    const server = await startTimbre({ dataDir });
    try {
      assert.equal((await request(server.url, 'GET', '/api/system/gpu', { key })).status, 200);
      assert.equal((await request(server.url, 'GET', '/ws', { key })).body.error.code, 'insufficient_scope');

      // Keys are roots of their own lines over HTTP; the CLI, the owner's, sees and manages them all.
      const other = await createKeyWithCli(dataDir, 'other root');
      const minted = await request(server.url, 'POST', '/api/api-keys', { key: other.key, json: { name: 'minted' } });
      assert.equal(minted.status, 201);
      const seen = await request(server.url, 'GET', '/api/api-keys', { key });
      assert.deepEqual(
        seen.body.keys.map((entry: { name: string }) => entry.name),
        ['desk'],
      );
      const all = JSON.parse((await cli(['keys', 'list', '--data-dir', dataDir, '--json'])).stdout);
      assert.deepEqual(
        all.map((entry: { name: string }) => entry.name),
        ['desk', 'other root', 'minted'],
      );
      const limited = await cli(['keys', 'limits', minted.body.key_id, 'task_reads=5', '--data-dir', dataDir, '--json']);
      assert.equal(JSON.parse(limited.stdout).rate_limits.task_reads, 5, limited.stderr);
      assert.equal((await cli(['keys', 'revoke', minted.body.key_id, '--data-dir', dataDir])).code, 0);
      assert.equal((await request(server.url, 'GET', '/api/system/gpu', { key: minted.body.key })).body.error.code, 'key_revoked');
    } finally {
      await server.stop();
      await removeDir(dataDir);
    }
  });

  test('keys create refuses unknown scopes and bad limits with a clear message', async () => {
    const dataDir = await tempDir();
    const badScope = await cli(['keys', 'create', '--name', 'x', '--scopes', 'root:all', '--data-dir', dataDir]);
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /Unknown scopes: root:all/);
    const badLimit = await cli(['keys', 'create', '--name', 'x', '--rate-limit', 'system:read=lots', '--data-dir', dataDir]);
    assert.equal(badLimit.code, 2);
    await removeDir(dataDir);
  });

  test('keys limits, revoke and delete act on a key by id', async () => {
    const dataDir = await tempDir();
    const created = await createKeyWithCli(dataDir, 'ops');
    const limited = await cli(['keys', 'limits', created.key_id, 'tts:generate=3', '--data-dir', dataDir, '--json']);
    assert.equal(JSON.parse(limited.stdout).rate_limits['tts:generate'], 3);
    const revoked = await cli(['keys', 'revoke', created.key_id, '--data-dir', dataDir, '--json']);
    assert.ok(JSON.parse(revoked.stdout).revoked_at);
    assert.equal((await cli(['keys', 'delete', created.key_id, '--data-dir', dataDir])).code, 0);
    const missing = await cli(['keys', 'delete', created.key_id, '--data-dir', dataDir]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No API key/);
    await removeDir(dataDir);
  });

  test('TIMBRE_API_KEY creates that key with all scopes at start, once', async () => {
    const dataDir = await tempDir();
    const key = `tmb_${randomBytes(32).toString('base64url')}`;
    for (let start = 0; start < 2; start++) {
      const server = await startTimbre({ dataDir, env: { TIMBRE_API_KEY: key } });
      try {
        const { status, body } = await request(server.url, 'GET', '/api/api-keys', { key });
        assert.equal(status, 200);
        assert.equal(body.keys.length, 1, 'a restart does not create the key again');
        assert.deepEqual(body.keys[0].scopes, ALL_SCOPES);
      } finally {
        await server.stop();
      }
    }
    await removeDir(dataDir);
  });

  test('a malformed TIMBRE_API_KEY stops the start with a clear message', async () => {
    const dataDir = await tempDir();
    await assert.rejects(startTimbre({ dataDir, env: { TIMBRE_API_KEY: 'secret' } }), /bootstrap key must be "tmb_"/);
    await removeDir(dataDir);
  });
});
