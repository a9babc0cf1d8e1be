// Black-box (the service as a process): `timbre studio` finds the running service on its port, and the session cookie is checked on /ws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { cli, request, serverWithAdmin } from '../../../helpers/timbre.js';

/** The session cookie a sign-in answer sets, as a Cookie header value. */
function sessionCookie(setCookie: string[] | undefined): string {
  const cookie = setCookie?.find((value) => value.startsWith('timbre_session='));
  assert.ok(cookie, 'a session cookie is set');
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  return cookie.split(';')[0]!;
}

function webSocketOpens(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => undefined);
  });
}

describe('studio sessions', () => {
  const fixture = serverWithAdmin();

  test('a key opens a cookie session that acts as the key, and signing out ends it', async () => {
    const { url } = fixture.server;
    const signIn = await request(url, 'POST', '/api/session', { json: { api_key: fixture.admin.key }, headers: { origin: url } });
    assert.equal(signIn.status, 201, signIn.text);
    assert.equal(signIn.body.key_id, fixture.admin.key_id);
    assert.ok(!signIn.text.includes(fixture.admin.key), 'the key is not sent back');
    const cookie = sessionCookie(signIn.headers['set-cookie']);

    assert.equal((await request(url, 'GET', '/api/voices', { headers: { cookie } })).status, 200);
    assert.equal((await request(url, 'GET', '/api/session', { headers: { cookie } })).body.key_id, fixture.admin.key_id);
    const signOut = await request(url, 'DELETE', '/api/session', { headers: { cookie, origin: url } });
    assert.equal(signOut.status, 204);
    const after = await request(url, 'GET', '/api/voices', { headers: { cookie } });
    assert.deepEqual([after.status, after.body.error.code], [401, 'session_expired']);
  });

  test('requests the cookie signs must come from the studio’s origin to change anything or open /ws', async () => {
    const { url } = fixture.server;
    const signIn = await request(url, 'POST', '/api/session', { json: { api_key: fixture.admin.key } });
    const cookie = sessionCookie(signIn.headers['set-cookie']);
    const category = (origin?: string) =>
      request(url, 'POST', '/api/categories', { json: { name: `Stories ${origin ?? 'none'}` }, headers: { cookie, ...(origin ? { origin } : {}) } });

    for (const origin of [undefined, 'http://evil.example', 'null']) {
      const refused = await category(origin);
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'cross_site_request'], `Origin ${origin}`);
    }
    assert.equal((await category(url)).status, 201);
    assert.equal(await webSocketOpens(url, { cookie, origin: 'http://evil.example' }), 403);
    assert.equal(await webSocketOpens(url, { cookie, origin: url }), 'open');
    const foreignSignIn = await request(url, 'POST', '/api/session', { json: { api_key: fixture.admin.key }, headers: { origin: 'http://evil.example' } });
    assert.equal(foreignSignIn.status, 403);
  });

  test('revoking the key ends its sessions', async () => {
    const { url } = fixture.server;
    const created = await request(url, 'POST', '/api/api-keys', { key: fixture.admin.key, json: { name: 'short-lived', scopes: ['voices:read'] } });
    const cookie = sessionCookie((await request(url, 'POST', '/api/session', { json: { api_key: created.body.key } })).headers['set-cookie']);
    assert.equal((await request(url, 'GET', '/api/voices', { headers: { cookie } })).status, 200);
    assert.equal((await request(url, 'GET', '/api/system/info', { headers: { cookie } })).status, 403, 'the session has only the key’s scopes');
    await request(url, 'POST', `/api/api-keys/${created.body.key_id}/revoke`, { key: fixture.admin.key });
    const after = await request(url, 'GET', '/api/voices', { headers: { cookie } });
    assert.deepEqual([after.status, after.body.error.code], [401, 'key_revoked']);
  });

  test('`timbre studio` prints a link that signs in once and holds no key', async () => {
    const { url, dataDir } = fixture.server;
    const printed = await cli(['studio', '--no-open', '--json', '--data-dir', dataDir, '--port', String(fixture.server.port)]);
    assert.equal(printed.code, 0, printed.stderr);
    const link = JSON.parse(printed.stdout);
    assert.equal(link.serving, true);
    const token = /#signin=([A-Za-z0-9_-]+)$/.exec(link.url)?.[1];
    assert.ok(token, link.url);
    assert.doesNotMatch(link.url, /tmb_/);

    const first = await request(url, 'POST', '/api/session', { json: { sign_in_token: token } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.name, 'Timbre Studio');
    const again = await request(url, 'POST', '/api/session', { json: { sign_in_token: token } });
    assert.deepEqual([again.status, again.body.error.code], [401, 'sign_in_link_invalid']);

    const second = JSON.parse((await cli(['studio', '--no-open', '--json', '--data-dir', dataDir])).stdout);
    assert.equal(second.key_id, link.key_id, 'the studio key is made once and reused');
  });

  test('the studio page and its assets are served without a key, with a strict content policy', async () => {
    const page = await request(fixture.server.url, 'GET', '/', { headers: { 'accept-encoding': 'identity' } });
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id="app">/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    assert.ok(script);
    const asset = await request(fixture.server.url, 'GET', script, { headers: { 'accept-encoding': 'gzip' } });
    assert.deepEqual([asset.status, asset.headers['content-encoding']], [200, 'gzip']);
    assert.match(String(asset.headers['cache-control']), /immutable/);
    const missing = await request(fixture.server.url, 'GET', '/assets/..%2Fpackage.json');
    assert.equal(missing.status, 400);
    assert.equal((await request(fixture.server.url, 'GET', '/assets/nope.js')).status, 404);
  });
});
