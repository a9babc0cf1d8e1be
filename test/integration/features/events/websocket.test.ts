// Black-box (the service as a process): /ws needs an upgrade on a real socket.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type WebSocket from 'ws';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';
import { openEventSocket, sendClientMessage } from '../../../helpers/event-socket.js';

interface Outcome {
  status?: number;
  body?: any;
  hello?: any;
  socket?: WebSocket;
}

/** Opens /ws and resolves with the first message, or with the HTTP status of a refused handshake. */
function connect(url: string, options: { key?: string; query?: string } = {}): Promise<Outcome> {
  const socket = openEventSocket(url, options);
  return new Promise((resolve, reject) => {
    socket.once('message', (raw) => resolve({ hello: JSON.parse(String(raw)), socket }));
    socket.once('unexpected-response', (handshake, response) => {
      let text = '';
      response.on('close', () => handshake.destroy());
      response.on('data', (chunk) => (text += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
    });
    socket.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}

describe('WebSocket /ws', () => {
  const fixture = serverWithAdmin({ keyArgs: ['--rate-limit', 'system:read=10000', '--rate-limit', 'ws:connect=1000'] });

  const newKey = async (json: unknown) => (await request(fixture.server.url, 'POST', '/api/api-keys', { key: fixture.admin.key, json })).body;

  test('a client with a key in X-API-Key receives hello with the server version and its key id', async () => {
    const outcome = await connect(fixture.server.url, { key: fixture.admin.key });
    assert.equal(outcome.hello.type, 'hello');
    assert.equal(outcome.hello.data.key_id, fixture.admin.key_id);
    assert.match(outcome.hello.data.version, /^\d+\.\d+\.\d+/);
    assert.ok(!Number.isNaN(Date.parse(outcome.hello.ts)));
    outcome.socket?.close();
  });

  test('browsers can pass the key as the api_key query parameter', async () => {
    const outcome = await connect(fixture.server.url, { query: `?api_key=${fixture.admin.key}` });
    assert.equal(outcome.hello.type, 'hello');
    outcome.socket?.close();
  });

  test('a client answers ping messages with pong', async () => {
    const outcome = await connect(fixture.server.url, { key: fixture.admin.key });
    const socket = outcome.socket!;
    const reply = new Promise<any>((resolve) => socket.once('message', (raw) => resolve(JSON.parse(String(raw)))));
    sendClientMessage(socket, { type: 'ping' });
    assert.equal((await reply).type, 'pong');
    socket.close();
  });

  test('without a key the handshake is refused with 401', async () => {
    const outcome = await connect(fixture.server.url);
    assert.equal(outcome.status, 401);
    assert.equal(outcome.body.error.code, 'missing_api_key');
  });

  test('a key without ws:connect is refused with 403', async () => {
    const narrow = await newKey({ name: 'no ws', scopes: ['system:read'] });
    const outcome = await connect(fixture.server.url, { key: narrow.key });
    assert.equal(outcome.status, 403);
    assert.equal(outcome.body.error.details.required_scope, 'ws:connect');
  });

  test('the sixth connection attempt in a minute is refused for rate limit', async () => {
    const key = (await newKey({ name: 'ws defaults' })).key;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const outcome = await connect(fixture.server.url, { key });
      assert.equal(outcome.hello?.type, 'hello', `attempt ${attempt}`);
      outcome.socket?.close();
    }
    const refused = await connect(fixture.server.url, { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.equal(refused.body.error.details.scope, 'ws:connect');
  });

  test('ws:connect is counted apart from system:read', async () => {
    const key = (await newKey({ name: 'separate', rate_limits: { 'system:read': 1 } })).key;
    await request(fixture.server.url, 'GET', '/api/system/gpu', { key });
    assert.equal((await request(fixture.server.url, 'GET', '/api/system/gpu', { key })).status, 429);
    const outcome = await connect(fixture.server.url, { key });
    assert.equal(outcome.hello?.type, 'hello');
    outcome.socket?.close();
  });

  test('revoking a key closes its open connections', async () => {
    const created = await newKey({ name: 'to revoke' });
    const outcome = await connect(fixture.server.url, { key: created.key });
    const closed = new Promise<number>((resolve) => outcome.socket!.once('close', (code) => resolve(code)));
    await request(fixture.server.url, 'POST', `/api/api-keys/${created.key_id}/revoke`, { key: fixture.admin.key });
    assert.equal(await closed, 4001);
  });
});
