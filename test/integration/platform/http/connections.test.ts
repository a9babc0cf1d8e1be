// Black-box (the service as a process): sockets and their timeouts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';

const HEADERS_TIMEOUT = 3;
const BODY_IDLE = 1;
const MAX_CONNECTIONS = 4;

/** A raw connection from `localAddress` and everything the server sends on it until it closes. */
async function open(url: string, localAddress = '127.0.0.1'): Promise<{ socket: Socket; answer: Promise<{ text: string; closedAfterMs: number }> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  await once(socket, 'connect');
  const opened = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  const answer = new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - opened }));
  });
  return { socket, answer };
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const codeOf = (text: string) => (JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string } }).error.code;

describe('connections: headers and body timeouts, and a cap per client address', () => {
  const fixture = serverWithAdmin({
    args: [
      '--headers-timeout-seconds',
      String(HEADERS_TIMEOUT),
      '--body-idle-seconds',
      String(BODY_IDLE),
      '--max-connections-per-address',
      String(MAX_CONNECTIONS),
    ],
  });

  test('a body that stops arriving is cut with 408 once it has been silent for the idle time', async () => {
    const { socket, answer } = await open(fixture.server.url);
    socket.write(
      `POST /api/text/split HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${fixture.admin.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"text":"`,
    );
    const { text, closedAfterMs } = await answer;
    assert.equal(statusOf(text), 408, text);
    assert.equal(codeOf(text), 'request_timeout');
    assert.match(text, /\r\nX-Request-Id: req_/i);
    assert.ok(closedAfterMs >= BODY_IDLE * 1000 && closedAfterMs < BODY_IDLE * 1000 + 3000, `closed after ${closedAfterMs} ms`);
  });

  test('a body that keeps arriving slowly, for longer than the idle time, is received whole', async () => {
    const body = JSON.stringify({ text: 'One sentence. And another one, sent a few bytes at a time.' });
    const { socket, answer } = await open(fixture.server.url);
    socket.write(
      `POST /api/text/split HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${fixture.admin.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    const started = Date.now();
    for (let at = 0; at < body.length; at += 8) {
      socket.write(body.slice(at, at + 8));
      await sleep(250);
    }
    const { text } = await answer;
    assert.ok(Date.now() - started > 2 * BODY_IDLE * 1000, 'the body took longer than the idle time');
    assert.equal(statusOf(text), 200, text);
    assert.match(text, /And another one/);
  });

  test('a generation that sends nothing for longer than the idle time is answered', async () => {
    // Festival's HTS voice is among the slowest here: seconds of silence on any machine.
    const text = Array.from({ length: 3 }, (_, index) => `Sentence ${index + 1} takes the engine a moment to speak.`).join(' ');
    const started = Date.now();
    const response = await request(fixture.server.url, 'POST', '/api/generate/preset', {
      key: fixture.admin.key,
      json: { voice_id: 'festival:cmu_us_slt_arctic_hts', text, language: 'en-US' },
    });
    assert.equal(response.status, 200, response.text.slice(0, 300));
    assert.ok(Date.now() - started > BODY_IDLE * 1000, `the generation took ${Date.now() - started} ms, no longer than the idle time`);
  });

  test('headers that never finish, and a connection that sends nothing, are closed after the headers timeout', async () => {
    const partial = await open(fixture.server.url);
    partial.socket.write('GET /api/voices HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const silent = await open(fixture.server.url);
    for (const { text, closedAfterMs } of [await partial.answer, await silent.answer]) {
      assert.ok(closedAfterMs >= HEADERS_TIMEOUT * 1000 && closedAfterMs < HEADERS_TIMEOUT * 1000 + 3000, `closed after ${closedAfterMs} ms`);
      if (text) assert.equal(statusOf(text), 408, text);
    }
  });

  test('past the cap, an address’s new connections are closed at once; another address, and the same after closing, are served', async () => {
    // Kept-alive connections after one answer each: open, and subject to no timeout but keep-alive's.
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(fixture.server.url)));
    for (const { socket } of held) socket.write('GET /api/voices HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await sleep(300);
    const refused = await open(fixture.server.url);
    const { text, closedAfterMs } = await refused.answer;
    assert.equal(text, '', 'nothing is answered on a refused connection');
    assert.ok(closedAfterMs < 1000, `closed after ${closedAfterMs} ms`);
    const other = await open(fixture.server.url, '127.0.0.2');
    other.socket.end('GET /api/voices HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.equal(statusOf((await other.answer).text), 401, 'another address is served');
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ answer }) => answer));
    await sleep(100);
    assert.equal((await request(fixture.server.url, 'GET', '/api/system/info', { key: fixture.admin.key })).status, 200);
  });
});
