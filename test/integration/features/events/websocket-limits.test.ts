// Black-box (the service as a process): /ws needs an upgrade on a real socket.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';
import { residentBytes, whileWatching } from '../../../helpers/watch.js';
import { openEventSocket, sendClientMessage } from '../../../helpers/event-socket.js';

/** The default budget of client messages per connection (TIMBRE_WS_MAX_MESSAGES_PER_MINUTE). */
const MESSAGES_PER_MINUTE = 600;
const KEY_LIMITS = ['--rate-limit', 'system:read=100000', '--rate-limit', 'ws:connect=1000', '--rate-limit', 'tts:generate=1000'];

/** A client frame: text, final, masked as clients must. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error('short frames only');
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

/** A raw TCP client that completes the handshake and then never reads another byte. */
async function nonReadingClient(url: string, key: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-API-Key: ${key}\r\n\r\n`,
  );
  const head = await new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
  assert.match(head, /^HTTP\/1\.1 101/);
  socket.pause();
  return socket;
}

describe('WebSocket limits', () => {
  const fixture = serverWithAdmin({ keyArgs: KEY_LIMITS });

  test('a full minute of subscribes at once gets small answers, stops at the cap, stalls no other request, and one more closes it', async () => {
    const socket = openEventSocket(fixture.server.url, { key: fixture.admin.key });
    let received = 0;
    const answers: { type: string; data: Record<string, unknown> }[] = [];
    const allAnswered = new Promise<void>((resolve) =>
      socket.on('message', (raw) => {
        received += (raw as Buffer).length;
        const message = JSON.parse(String(raw));
        if (message.type !== 'hello') answers.push(message);
        if (answers.length === MESSAGES_PER_MINUTE) resolve();
      }),
    );
    const closedWith = new Promise<number>((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('open', resolve));
    const { slowestMs, rssGrowthBytes } = await whileWatching(fixture.server, fixture.admin.key, async () => {
      for (let index = 0; index < MESSAGES_PER_MINUTE; index++) sendClientMessage(socket, { type: 'subscribe', data: { task_id: `task_${index}` } });
      await allAnswered;
    });
    // The budget refills by one message every 100 ms: a hundred more at once overdraw it.
    for (let index = 0; index < 100; index++) sendClientMessage(socket, { type: 'ping' });

    assert.equal(await closedWith, 4003);
    assert.ok(answers.length < MESSAGES_PER_MINUTE + 100, 'messages past the budget are not answered');
    assert.ok(slowestMs < 1000, `another request took ${slowestMs.toFixed(0)} ms`);
    assert.ok(received < 200 * MESSAGES_PER_MINUTE, `the server sent ${received} bytes for ${MESSAGES_PER_MINUTE} subscribes`);
    assert.ok(rssGrowthBytes < 100 * 1024 * 1024, `RSS grew by ${rssGrowthBytes} bytes`);
    assert.deepEqual(answers[0], { ...answers[0], type: 'subscribed', data: { task_id: 'task_0', count: 1 } });
    assert.deepEqual(answers[99]?.data, { task_id: 'task_99', count: 100 });
    assert.equal(answers[100]?.type, 'error');
    assert.equal(answers[100]?.data.code, 'too_many_subscriptions');
  });

  test('a client that stops reading while it floods pings is dropped before the server grows by 10 MB', async () => {
    const client = await nonReadingClient(fixture.server.url, fixture.admin.key);
    const dropped = new Promise<void>((resolve) => {
      client.once('error', () => resolve());
      client.once('close', () => resolve());
    });
    let closed = false;
    void dropped.then(() => (closed = true));
    const rssBefore = await residentBytes(fixture.server.process.pid!);
    let peak = 0;
    const ping = textFrame(JSON.stringify({ type: 'ping' }));
    const batch = Buffer.concat(Array.from({ length: 1000 }, () => ping));
    for (let sent = 0; sent < 1000 && !closed; sent++) {
      // Waits while the server reads slowly, so the flood is as fast as the server takes it.
      if (!client.write(batch)) await Promise.race([new Promise((resolve) => client.once('drain', resolve)), dropped]);
      if (sent % 20 === 0) peak = Math.max(peak, (await residentBytes(fixture.server.process.pid!)) - rssBefore);
    }
    assert.ok(closed, 'the server dropped the client that did not read');
    assert.ok(peak < 10 * 1024 * 1024, `RSS grew by ${peak} bytes`);
    client.destroy();
    const after = await request(fixture.server.url, 'GET', '/api/system/info', { key: fixture.admin.key });
    assert.equal(after.status, 200);
  });

  test('a client following one task receives its events and not those of other tasks', async () => {
    const socket = openEventSocket(fixture.server.url, { key: fixture.admin.key });
    const events: { type: string; data: Record<string, unknown> }[] = [];
    socket.on('message', (raw) => events.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    const generate = (text: string) =>
      request(fixture.server.url, 'POST', '/api/generate/preset', {
        key: fixture.admin.key,
        json: { voice_id: 'pico:en-US', text, language: 'en-US', async: true },
      });
    const started = await generate('The task this client follows.');
    assert.equal(started.status, 202, started.text);
    const followed = started.body.task_id;
    sendClientMessage(socket, { type: 'subscribe', data: { task_id: followed } });
    const other = (await generate('Another task.')).body.task_id;
    for (let waited = 0; !events.some((event) => event.type === 'job.completed' && event.data.task_id === followed) && waited < 200; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(events.some((event) => event.type === 'subscribed' && event.data.task_id === followed));
    assert.ok(events.some((event) => event.type === 'job.completed' && event.data.task_id === followed));
    const afterSubscribe = events.slice(events.findIndex((event) => event.type === 'subscribed'));
    assert.ok(!afterSubscribe.some((event) => event.data.task_id === other), 'events of other tasks are not sent');
    sendClientMessage(socket, { type: 'unsubscribe', data: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(events.find((event) => event.type === 'unsubscribed')?.data, { task_id: null, count: 0 });
    socket.close();
  });
});
