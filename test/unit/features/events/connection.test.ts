import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLOSE_RATE_LIMITED, CLOSE_SLOW_CONSUMER, Connection, messageText, parse, type ClientSocket } from '../../../../src/features/events/connection.js';

/** A socket that keeps what is sent; `unread` is what the client has not taken yet. */
function socket(unread = 0) {
  const sent: { type: string; data: Record<string, unknown> }[] = [];
  const closed: number[] = [];
  const fake: ClientSocket = {
    readyState: 1,
    pause: () => undefined,
    bufferedAmount: unread,
    send: (text: string) => void sent.push(JSON.parse(text) as (typeof sent)[number]),
    close: (code?: number) => void closed.push(code ?? 1000),
    terminate: () => undefined,
  };
  return { fake, sent, closed };
}

const LIMITS = { pingSeconds: 30, maxSubscriptions: 2, maxBufferedBytes: 1024, maxMessagesPerMinute: 60 };

describe('a WebSocket connection', () => {
  test('subscribing narrows it to tasks, up to the limit, and each answer says how many', () => {
    const { fake, sent } = socket();
    const connection = new Connection(fake, LIMITS);
    connection.receive({ type: 'subscribe', data: { task_id: 'task_a' } });
    connection.receive({ type: 'subscribe', data: { task_id: 'task_b' } });
    connection.receive({ type: 'subscribe', data: { task_id: 'task_c' } });
    connection.receive({ type: 'subscribe', data: { task_id: 'task_a' } });
    assert.deepEqual(
      sent.map((message) => [message.type, message.data.count ?? message.data.code]),
      [
        ['subscribed', 1],
        ['subscribed', 2],
        ['error', 'too_many_subscriptions'],
        ['subscribed', 2],
      ],
    );
    connection.receive({ type: 'unsubscribe', data: { task_id: 'task_a' } });
    connection.receive({ type: 'unsubscribe' });
    assert.deepEqual(
      sent.slice(-2).map((message) => message.data),
      [
        { task_id: 'task_a', count: 1 },
        { task_id: null, count: 0 },
      ],
    );
    assert.equal(connection.tasks.size, 0);
  });

  test('what is not a known message gets an error answer, never a dropped connection', () => {
    const { fake, sent, closed } = socket();
    const connection = new Connection(fake, LIMITS);
    connection.receive(parse('not json'));
    connection.receive(parse('[1, 2]'));
    connection.receive({ type: 'subscribe', data: { task_id: 'x'.repeat(65) } });
    connection.receive({ type: 'ping' });
    assert.deepEqual(
      sent.map((message) => message.data.code ?? message.type),
      ['unknown_message', 'unknown_message', 'invalid_message', 'pong'],
    );
    assert.deepEqual(closed, []);
  });

  test('a client that leaves more than the bound unread is closed as a slow consumer', () => {
    const { fake, sent, closed } = socket(LIMITS.maxBufferedBytes + 1);
    new Connection(fake, LIMITS).reply('job.progress', { progress: 0.5 });
    assert.deepEqual([sent.length, closed], [0, [CLOSE_SLOW_CONSUMER]]);
  });

  test('a client may send its per-minute budget at once, then one message per refill, and is closed past it', () => {
    const { fake, sent, closed } = socket();
    let clock = 0;
    const connection = new Connection(fake, LIMITS, () => clock);
    for (let index = 0; index < LIMITS.maxMessagesPerMinute; index++) connection.receive({ type: 'ping' });
    clock += 1000;
    connection.receive({ type: 'ping' });
    assert.deepEqual([sent.length, closed], [LIMITS.maxMessagesPerMinute + 1, []]);
    connection.receive({ type: 'ping' });
    assert.deepEqual([sent.length, closed], [LIMITS.maxMessagesPerMinute + 1, [CLOSE_RATE_LIMITED]]);
  });

  test('messages read as text however the socket delivered them', () => {
    assert.equal(messageText(Buffer.from('{"type":"ping"}')), '{"type":"ping"}');
    assert.equal(messageText([Buffer.from('{"ty'), Buffer.from('pe":1}')]), '{"type":1}');
    assert.equal(messageText(new TextEncoder().encode('ok').buffer), 'ok');
  });
});
