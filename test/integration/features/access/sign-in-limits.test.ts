import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

/** The session cookie a sign-in answer sets, as a Cookie header value. */
function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((entry) => entry.name === 'timbre_session');
  assert.ok(cookie, `a session cookie is set: ${response.body}`);
  return `timbre_session=${cookie.value}`;
}

describe('sign-in limits: failed attempts per address, live sessions per key', () => {
  let timbre: InProcessTimbre;
  before(async () => {
    timbre = await startInProcess({ flags: { 'sessions-per-key': '3' } });
  });
  after(() => timbre.close());

  const signIn = (apiKey: string, address: string) =>
    timbre.call({ method: 'POST', url: '/api/session', key: null, payload: { api_key: apiKey }, remoteAddress: address });
  const session = (cookie?: string) => timbre.call({ method: 'GET', url: '/api/session', key: null, headers: cookie ? { cookie } : {} });
  const wrongKey = `tmb_${'x'.repeat(43)}`;

  test('after 10 failed sign-ins in a minute an address is refused with 429 and Retry-After, even with the right key; other addresses are not', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const refused = await signIn(wrongKey, '192.0.2.1');
      assert.equal(refused.statusCode, 401, `attempt ${attempt}`);
    }
    for (const key of [wrongKey, timbre.admin.key]) {
      const throttled = await signIn(key, '192.0.2.1');
      assert.equal(throttled.statusCode, 429, throttled.body);
      const { error } = throttled.json<{ error: { code: string; details: { limit: number; retry_after_seconds: number } } }>();
      assert.equal(error.code, 'sign_in_throttled');
      assert.equal(error.details.limit, 10);
      const retryAfter = Number(throttled.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(throttled.headers['retry-after'])}`);
      assert.equal(error.details.retry_after_seconds, retryAfter);
    }
    assert.equal((await signIn(timbre.admin.key, '192.0.2.2')).statusCode, 201, 'another address signs in');
  });

  test('a successful sign-in does not count as a failure', async () => {
    for (let attempt = 0; attempt < 15; attempt++) assert.equal((await signIn(timbre.admin.key, '192.0.2.3')).statusCode, 201);
    assert.equal((await signIn(wrongKey, '192.0.2.3')).statusCode, 401);
  });

  test('a key keeps at most its newest sessions (here 3): signing in once more ends the oldest', async () => {
    const key = timbre.services.keys.create({ name: 'many tabs' });
    const cookies: string[] = [];
    for (let tab = 0; tab < 4; tab++) cookies.push(sessionCookie(await signIn(key.secret, '192.0.2.4')));
    const states = await Promise.all(cookies.map(async (cookie) => (await session(cookie)).json<{ signed_in: boolean }>().signed_in));
    assert.deepEqual(states, [false, true, true, true]);
    const rows = timbre.services.db.prepare('SELECT count(*) AS count FROM sessions WHERE key_id = ?').get(key.record.keyId);
    assert.deepEqual(rows, { count: 3 });
  });

  test('GET /api/session answers 200 signed_in false without a session, and clears the cookie of one that ended', async () => {
    const none = await session();
    assert.equal(none.statusCode, 200);
    assert.deepEqual(none.json(), { signed_in: false });

    const cookie = sessionCookie(await signIn(timbre.admin.key, '192.0.2.5'));
    const live = await session(cookie);
    assert.deepEqual(
      [live.statusCode, live.json<{ signed_in: boolean; key_id: string }>().signed_in, live.json<{ key_id: string }>().key_id],
      [200, true, timbre.admin.keyId],
    );
    assert.equal((await timbre.call({ method: 'DELETE', url: '/api/session', key: null, headers: { cookie, origin: 'http://127.0.0.1' } })).statusCode, 204);
    const ended = await session(cookie);
    assert.equal(ended.statusCode, 200);
    assert.deepEqual(ended.json(), { signed_in: false });
    assert.equal(ended.cookies.find((entry) => entry.name === 'timbre_session')?.value, '', 'the stale cookie is cleared');
  });
});
