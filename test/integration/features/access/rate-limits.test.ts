import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

/**
 * Rate limits are HTTP behaviour of the application, not of a process: the routes and hooks run
 * in-process through `inject()`, and the sliding-window test moves the service's clock instead of
 * waiting a real minute.
 */
describe('rate limits per key and scope', () => {
  let timbre: InProcessTimbre;
  before(async () => {
    timbre = await startInProcess();
  });
  after(() => timbre.close());

  const as = async (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const answer = await timbre.call({ key, method, url, ...(payload ? { payload } : {}) });
    const text = answer.body;
    return { status: answer.statusCode, headers: answer.headers, text, body: text ? answer.json() : undefined };
  };
  const newKey = async (json: Record<string, unknown>) => (await as(timbre.admin.key, 'POST', '/api/api-keys', json)).body;

  test('a key limited to 3 system:read per minute gets 429 with Retry-After on the 4th; another key is unaffected', async () => {
    const limited = await newKey({ name: 'three', rate_limits: { 'system:read': 3 } });
    const other = await newKey({ name: 'other' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await as(limited.key, 'GET', '/api/system/gpu');
      assert.equal(response.status, 200, `request ${attempt}`);
      assert.equal(response.headers['x-ratelimit-limit'], '3');
      assert.equal(response.headers['x-ratelimit-remaining'], String(3 - attempt));
      assert.ok(Number(response.headers['x-ratelimit-reset']) > 0);
    }
    const refused = await as(limited.key, 'GET', '/api/system/gpu');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.equal(refused.body.error.details.scope, 'system:read');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(refused.headers['retry-after'])}`);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');

    const unaffected = await as(other.key, 'GET', '/api/system/gpu');
    assert.equal(unaffected.status, 200);
  });

  test('a key with default limits gets its 61st system:read request in a minute refused', async () => {
    const key = (await newKey({ name: 'defaults' })).key;
    for (let attempt = 1; attempt <= 60; attempt++) {
      const response = await as(key, 'GET', '/api/api-keys');
      assert.equal(response.status, 200, `request ${attempt}`);
    }
    const refused = await as(key, 'GET', '/api/api-keys');
    assert.equal(refused.status, 429);
    assert.ok(refused.headers['retry-after']);
  });

  const mint = async (creator: string, json: Record<string, unknown>) => {
    const created = await as(creator, 'POST', '/api/api-keys', json);
    assert.equal(created.status, 201, created.text);
    return created.body as { key: string; key_id: string; created_by: string };
  };

  test('keys a key mints share its budget: children of an exhausted key are refused at once', async () => {
    const parent = await newKey({ name: 'parent', rate_limits: { 'system:read': 5 } });
    const children = [await mint(parent.key, { name: 'c1' }), await mint(parent.key, { name: 'c2' }), await mint(parent.key, { name: 'c3' })];
    assert.ok(children.every((child) => child.created_by === parent.key_id));
    for (let used = 3; used < 5; used++) assert.equal((await as(parent.key, 'GET', '/api/system/gpu')).status, 200);
    for (const child of children) {
      const refused = await as(child.key, 'GET', '/api/system/gpu');
      assert.equal(refused.status, 429, 'a fresh child has no budget of its own beyond its creator’s');
      assert.equal(refused.headers['x-ratelimit-limit'], '5', 'the creator’s budget is the one that binds');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
    }
  });

  test('the requests of a key and all its descendants together never pass its limit', async () => {
    const parent = await newKey({ name: 'root', rate_limits: { 'system:read': 8 } });
    const child = await mint(parent.key, { name: 'child' });
    const grandchild = await mint(child.key, { name: 'grandchild' });
    let passed = 2; // the two mints
    for (let round = 0; round < 10; round++) {
      for (const key of [parent.key, child.key, grandchild.key]) if ((await as(key, 'GET', '/api/system/gpu')).status === 200) passed += 1;
    }
    assert.equal(passed, 8);
  });

  test('deleting a key does not give the keys it made fresh budgets; the deleted key is refused and not listed', async () => {
    const parent = await newKey({ name: 'quitter', rate_limits: { 'system:read': 4 } });
    const [first, second] = [await mint(parent.key, { name: 'left 1' }), await mint(parent.key, { name: 'left 2' })];
    assert.equal((await as(parent.key, 'DELETE', `/api/api-keys/${parent.key_id}`)).status, 204);
    assert.equal((await as(parent.key, 'GET', '/api/system/gpu')).body.error.code, 'invalid_api_key');
    const listed = await as(timbre.admin.key, 'GET', '/api/api-keys');
    assert.ok(!listed.body.keys.some((key: { key_id: string }) => key.key_id === parent.key_id));
    assert.equal((await as(first.key, 'GET', '/api/system/gpu')).status, 200);
    assert.equal((await as(second.key, 'GET', '/api/system/gpu')).status, 429, 'four requests of the deleted key’s budget are spent');
  });

  test('the window slides: after a fixed window’s edge the requests of the last 60 s still count', async (t) => {
    // Only the clock is moved (timers stay real), so the service runs as it would across the minute.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const key = (await newKey({ name: 'sliding', rate_limits: { 'system:read': 3 } })).key;
    const started = Date.now();
    assert.equal((await as(key, 'GET', '/api/system/gpu')).status, 200);
    t.mock.timers.tick(30_000);
    for (let attempt = 0; attempt < 2; attempt++) assert.equal((await as(key, 'GET', '/api/system/gpu')).status, 200);
    const secondBatch = Date.now();
    t.mock.timers.tick(started + 61_000 - Date.now());
    const freed = await as(key, 'GET', '/api/system/gpu');
    assert.equal(freed.status, 200, 'the first request has left the window');
    assert.equal(freed.headers['x-ratelimit-remaining'], '0');
    const refused = await as(key, 'GET', '/api/system/gpu');
    assert.equal(refused.status, 429, 'a window starting at the first request would have let three more through here');
    const expected = (secondBatch + 60_000 - Date.now()) / 1000;
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(Math.abs(retryAfter - expected) <= 2, `Retry-After ${retryAfter} s, expected about ${expected.toFixed(1)} s`);
  });
});
