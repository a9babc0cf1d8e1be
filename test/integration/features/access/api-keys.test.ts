import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

describe('API keys and authentication over HTTP', () => {
  const fixture = inProcessWithAdmin();

  const create = (key: string, json: unknown) => injectRequest(fixture.server, 'POST', '/api/api-keys', { key, json });

  test('a request without a key is refused with missing_api_key', async () => {
    const response = await injectRequest(fixture.server, 'GET', '/api/api-keys');
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'missing_api_key');
  });

  test('a wrong key is refused with invalid_api_key', async () => {
    for (const key of ['tmb_' + 'A'.repeat(43), 'not-a-key', fixture.admin.key.slice(0, -1) + (fixture.admin.key.endsWith('A') ? 'B' : 'A')]) {
      const response = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key });
      assert.equal(response.status, 401, key);
      assert.equal(response.body.error.code, 'invalid_api_key');
    }
  });

  test('a new key is tmb_ and at least 32 random bytes, shown once, with all scopes by default', async () => {
    const response = await create(fixture.admin.key, { name: 'app' });
    assert.equal(response.status, 201);
    assert.match(response.body.key, /^tmb_[A-Za-z0-9_-]{43,}$/);
    assert.equal(response.body.prefix, response.body.key.slice(0, response.body.prefix.length));
    assert.deepEqual(response.body.scopes, fixture.admin.scopes);
    assert.equal(response.body.rate_limits['clone:create'], 2);
    assert.equal(response.body.revoked_at, null);
    const fetched = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key: response.body.key });
    assert.equal(fetched.status, 200);
  });

  test('the key list never contains a secret or a hash', async () => {
    const created = await create(fixture.admin.key, { name: 'secretive' });
    const listed = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key: fixture.admin.key });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.keys.length >= 2);
    assert.ok(!listed.text.includes(created.body.key), 'full key leaked');
    assert.ok(!listed.text.includes(created.body.key.slice(12)), 'secret part leaked');
    for (const key of listed.body.keys) {
      assert.deepEqual(Object.keys(key).sort(), [
        'created_at',
        'created_by',
        'key_id',
        'last_used_at',
        'name',
        'prefix',
        'rate_limits',
        'revoked_at',
        'scopes',
        'storage_quota_mb',
      ]);
    }
  });

  test('a key without the route scope gets insufficient_scope naming the scope', async () => {
    const narrow = await create(fixture.admin.key, { name: 'voices only', scopes: ['voices:read'] });
    const response = await injectRequest(fixture.server, 'GET', '/api/system/info', { key: narrow.body.key });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'insufficient_scope');
    assert.equal(response.body.error.details.required_scope, 'system:read');
  });

  test('a key cannot mint a key with more scopes or a higher limit than its own', async () => {
    const limited = await create(fixture.admin.key, { name: 'limited', scopes: ['system:read', 'voices:read'], rate_limits: { 'system:read': 30 } });
    const wider = await create(limited.body.key, { name: 'wider', scopes: ['system:read', 'tts:generate'] });
    assert.equal(wider.status, 403);
    assert.equal(wider.body.error.code, 'scope_escalation');
    assert.deepEqual(wider.body.error.details.missing_scopes, ['tts:generate']);
    const faster = await create(limited.body.key, { name: 'faster', rate_limits: { 'system:read': 31 } });
    assert.equal(faster.status, 403);
    assert.equal(faster.body.error.code, 'rate_limit_escalation');
    const byDefault = await create(limited.body.key, { name: 'inherits' });
    assert.equal(byDefault.status, 201);
    assert.deepEqual(byDefault.body.scopes, ['system:read', 'voices:read']);
    assert.equal(byDefault.body.rate_limits['system:read'], 30, 'default limits are capped at the creator’s');
  });

  test('a key cannot revoke the key that made it: that key is outside its line and answered as missing', async () => {
    const narrow = await create(fixture.admin.key, { name: 'narrow', scopes: ['system:read'] });
    const revoke = await injectRequest(fixture.server, 'POST', `/api/api-keys/${fixture.admin.key_id}/revoke`, { key: narrow.body.key });
    assert.equal(revoke.status, 404);
    assert.equal(revoke.body.error.code, 'key_not_found');
  });

  test('a revoked key is refused with key_revoked and stays listed', async () => {
    const victim = await create(fixture.admin.key, { name: 'to revoke' });
    const revoked = await injectRequest(fixture.server, 'POST', `/api/api-keys/${victim.body.key_id}/revoke`, { key: fixture.admin.key });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revoked_at);
    const refused = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key: victim.body.key });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'key_revoked');
    const listed = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key: fixture.admin.key });
    assert.ok(listed.body.keys.some((key: { key_id: string }) => key.key_id === victim.body.key_id));
  });

  test('a deleted key is gone', async () => {
    const victim = await create(fixture.admin.key, { name: 'to delete' });
    const deleted = await injectRequest(fixture.server, 'DELETE', `/api/api-keys/${victim.body.key_id}`, { key: fixture.admin.key });
    assert.equal(deleted.status, 204);
    const refused = await injectRequest(fixture.server, 'GET', '/api/api-keys', { key: victim.body.key });
    assert.equal(refused.body.error.code, 'invalid_api_key');
    const again = await injectRequest(fixture.server, 'DELETE', `/api/api-keys/${victim.body.key_id}`, { key: fixture.admin.key });
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'key_not_found');
  });

  test('rate limits of a key can be changed, within the caller’s own', async () => {
    const target = await create(fixture.admin.key, { name: 'tunable' });
    const changed = await injectRequest(fixture.server, 'PATCH', `/api/api-keys/${target.body.key_id}`, {
      key: fixture.admin.key,
      json: { rate_limits: { 'tts:generate': 4 } },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.rate_limits['tts:generate'], 4);
    assert.equal(changed.body.rate_limits['system:read'], 60);
    const escalate = await injectRequest(fixture.server, 'PATCH', `/api/api-keys/${target.body.key_id}`, {
      key: target.body.key,
      json: { rate_limits: { 'tts:generate': 400 } },
    });
    assert.equal(escalate.body.error.code, 'rate_limit_escalation');
  });

  test('invalid bodies get invalid_request with the failing fields', async () => {
    const response = await create(fixture.admin.key, { name: '', scopes: ['nope'], colour: 'red' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid_request');
    const fields = response.body.error.details.fields.map((field: { field: string }) => field.field).sort();
    assert.deepEqual(fields, ['body.colour', 'body.name', 'body.scopes.0']);
  });
});
