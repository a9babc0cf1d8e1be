import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request, serverWithAdmin } from '../helpers/timbre.js';

describe('rate limits per key and scope', () => {
  const fixture = serverWithAdmin();

  const newKey = async (json: unknown) => (await request(fixture.server.url, 'POST', '/api/api-keys', { key: fixture.admin.key, json })).body;

  test('a key limited to 3 system:read per minute gets 429 with Retry-After on the 4th; another key is unaffected', async () => {
    const limited = await newKey({ name: 'three', rate_limits: { 'system:read': 3 } });
    const other = await newKey({ name: 'other' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await request(fixture.server.url, 'GET', '/api/system/gpu', { key: limited.key });
      assert.equal(response.status, 200, `request ${attempt}`);
      assert.equal(response.headers['x-ratelimit-limit'], '3');
      assert.equal(response.headers['x-ratelimit-remaining'], String(3 - attempt));
      assert.ok(Number(response.headers['x-ratelimit-reset']) > 0);
    }
    const refused = await request(fixture.server.url, 'GET', '/api/system/gpu', { key: limited.key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.equal(refused.body.error.details.scope, 'system:read');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers['retry-after']}`);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');

    const unaffected = await request(fixture.server.url, 'GET', '/api/system/gpu', { key: other.key });
    assert.equal(unaffected.status, 200);
  });

  test('a key with default limits gets its 61st system:read request in a minute refused', async () => {
    const key = (await newKey({ name: 'defaults' })).key;
    for (let attempt = 1; attempt <= 60; attempt++) {
      const response = await request(fixture.server.url, 'GET', '/api/api-keys', { key });
      assert.equal(response.status, 200, `request ${attempt}`);
    }
    const refused = await request(fixture.server.url, 'GET', '/api/api-keys', { key });
    assert.equal(refused.status, 429);
    assert.ok(refused.headers['retry-after']);
  });
});
