// Black-box (the service as a process): the Wyoming server's limits, through the client written from the
// protocol document. Timed (idle limit, 50 connections at once, a rate limit): scripts/test.mjs runs it alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKeyWithCli, GENEROUS_LIMITS, removeDir, request, tempDir, type CreatedKey } from '../../../helpers/timbre.js';
import { startTimbreWithWyoming, synthesize, type RunningWyoming, type WyomingClient } from '../../../helpers/wyoming-client.js';

const IDLE_SECONDS = 2;
/** How late past its idle limit a closing may come on a loaded 2-core machine. */
const CLOSE_SLACK_SECONDS = 3;
const CONNECTIONS = 50;

describe('the Wyoming server’s limits', { timeout: 300_000 }, () => {
  let wyoming: RunningWyoming;
  let key: CreatedKey;

  before(async () => {
    const dataDir = await tempDir();
    // Later flags win: room in every budget but two syntheses a minute.
    key = await createKeyWithCli(dataDir, 'wyoming', [...GENEROUS_LIMITS, '--rate-limit', 'tts:generate=2']);
    wyoming = await startTimbreWithWyoming({ dataDir, keyId: key.key_id, env: { TIMBRE_WYOMING_IDLE_SECONDS: String(IDLE_SECONDS) } });
  });
  after(async () => {
    await wyoming?.timbre.stop();
    if (wyoming) await removeDir(wyoming.timbre.dataDir);
  });

  async function ping(client: WyomingClient, text: string): Promise<void> {
    await client.send('ping', { text });
    assert.equal((await client.expect('pong')).data.text, text);
  }

  test('half an event then silence, a payload cut short, or nothing at all: the server frees the connection once its idle limit has passed, and not before', async () => {
    const stalls = {
      'half a header': (client: WyomingClient) => client.sendRaw(Buffer.from('{"type": "synthesize", "data": {"te')),
      'a payload cut short': (client: WyomingClient) =>
        client.sendRaw(Buffer.from('{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 3200}\n\0\0\0\0')),
      nothing: async () => true,
    };
    const closings = await Promise.all(
      Object.entries(stalls).map(async ([name, stall]) => {
        const client = await wyoming.connect();
        const sentAt = performance.timeOrigin + performance.now();
        await stall(client);
        const events = [];
        // Whatever the server says before closing may only be an error.
        for (let event = await client.next(); event; event = await client.next()) events.push(event.type);
        return { name, seconds: ((await client.closed) - sentAt) / 1000, events };
      }),
    );
    for (const { name, seconds, events } of closings) {
      assert.ok(seconds >= IDLE_SECONDS - 0.25 && seconds <= IDLE_SECONDS + CLOSE_SLACK_SECONDS, `${name}: closed after ${seconds.toFixed(2)} s`);
      assert.ok(
        events.every((type) => type === 'error'),
        `${name}: ${events.join(' ')}`,
      );
    }
  });

  test('a client that keeps talking is not idle: pings for longer than the idle limit keep the connection open', async () => {
    const client = await wyoming.connect();
    try {
      for (let round = 0; round < IDLE_SECONDS * 2 + 1; round++) {
        await ping(client, `round ${round}`);
        await sleep(IDLE_SECONDS * 500);
      }
      assert.equal(client.closedAt, undefined);
    } finally {
      client.end();
    }
  });

  test(`${CONNECTIONS} connections at once each get their info, and the HTTP API and a new connection still answer meanwhile`, async () => {
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => wyoming.connect()));
    try {
      const infos = await Promise.all(
        clients.map(async (client) => {
          await client.send('describe');
          return client.expect('info', 120_000);
        }),
      );
      assert.equal(infos.length, CONNECTIONS);
      for (const info of infos) assert.ok(info.data.tts[0].voices.length > 0);
      // All fifty still open.
      assert.ok(clients.every((client) => client.closedAt === undefined));
      const http = await request(wyoming.timbre.url, 'GET', '/api/system/status', { key: key.key });
      assert.equal(http.status, 200);
      const another = await wyoming.connect();
      await ping(another, 'one more');
      another.end();
    } finally {
      for (const client of clients) client.end();
    }
  });

  test('the Wyoming key’s rate limit (tts:generate=2 a minute): the third synthesize gets an error rate_limited and no audio', async () => {
    const client = await wyoming.connect();
    try {
      for (const text of ['One.', 'Two.']) {
        const reply = await synthesize(client, text, 'espeak:en-us');
        assert.equal(reply.error, undefined, JSON.stringify(reply.error?.data));
        assert.ok(reply.chunks.length > 0);
      }
      const third = await synthesize(client, 'Three.', 'espeak:en-us');
      assert.deepEqual(
        third.events.map((event) => event.type),
        ['error'],
      );
      assert.equal(third.error?.data.code, 'rate_limited');
      // Nothing follows the refusal: the connection carries on (a pong is next) or is closed.
      await client.send('ping', { text: 'after' });
      const next = await client.next();
      assert.ok(next === undefined || next.type === 'pong', next?.type);
    } finally {
      client.end();
    }
  });
});
