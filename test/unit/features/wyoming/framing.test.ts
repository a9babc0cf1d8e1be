import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { encodeEvent, EventReader, WYOMING_VERSION, type WyomingEvent } from '../../../../src/features/wyoming/framing.js';

const LIMITS = { maxEventBytes: 1024, maxPayloadBytes: 4096 };

/** An event as the protocol document lays it out, written here by hand rather than by encodeEvent. */
function frame(header: Record<string, unknown>, data?: string, payload?: Buffer): Buffer {
  const extra = data === undefined ? undefined : Buffer.from(data);
  const line = { ...header, ...(extra ? { data_length: extra.length } : {}), ...(payload ? { payload_length: payload.length } : {}) };
  return Buffer.concat([Buffer.from(`${JSON.stringify(line)}\n`), ...(extra ? [extra] : []), ...(payload ? [payload] : [])]);
}

function readAll(bytes: Buffer, pieceSize = bytes.length): WyomingEvent[] {
  const reader = new EventReader(LIMITS);
  const events: WyomingEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += pieceSize) events.push(...reader.push(bytes.subarray(offset, offset + pieceSize)));
  return events;
}

function refusal(bytes: Buffer): ApiError {
  try {
    new EventReader(LIMITS).push(bytes);
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error;
  }
  assert.fail('the reader accepted the bytes');
}

describe('EventReader', () => {
  const audio = Buffer.from([1, 2, 3, 4, 5, 6]);
  const stream = Buffer.concat([
    frame({ type: 'describe' }),
    frame({ type: 'synthesize', data: { text: 'in the header', voice: { name: 'a' } } }, JSON.stringify({ voice: { name: 'b' } })),
    frame({ type: 'audio-chunk', data: { rate: 16000 } }, JSON.stringify({ width: 2, channels: 1 }), audio),
  ]);

  test('reads header data, additional data merged over it, and the payload', () => {
    const [describeEvent, synthesize, chunk] = readAll(stream);
    assert.deepEqual(describeEvent, { type: 'describe', data: {} });
    assert.deepEqual(synthesize, { type: 'synthesize', data: { text: 'in the header', voice: { name: 'b' } } });
    assert.deepEqual(chunk?.data, { rate: 16000, width: 2, channels: 1 });
    assert.deepEqual(chunk?.payload, audio);
  });

  test('gives the same events whatever pieces the bytes arrive in', () => {
    const whole = readAll(stream);
    for (const size of [1, 2, 7, 50]) assert.deepEqual(readAll(stream, size), whole, `pieces of ${size} bytes`);
  });

  test('says when it holds part of an event', () => {
    const reader = new EventReader(LIMITS);
    reader.push(Buffer.from('{"type":"ping"'));
    assert.equal(reader.midEvent, true);
    assert.equal(reader.push(Buffer.from('}\n')).length, 1);
    assert.equal(reader.midEvent, false);
  });

  test('refuses a header line longer than the event limit before its end arrives', () => {
    assert.equal(refusal(Buffer.from(`{"type":"synthesize","data":{"text":"${'a'.repeat(2000)}`)).code, 'event_too_large');
  });

  test('refuses additional data that would take the event past its limit, before it arrives', () => {
    assert.equal(refusal(Buffer.from('{"type":"synthesize","data_length":5000}\n')).code, 'event_too_large');
  });

  test('refuses a payload over the limit from its header', () => {
    const error = refusal(Buffer.from('{"type":"audio-chunk","payload_length":10485760}\n'));
    assert.equal(error.code, 'payload_too_large');
    assert.equal(error.details.payload_length, 10485760);
  });

  test('refuses malformed headers and data', () => {
    for (const bad of ['{not json}\n', '[1,2]\n', '{"data":{}}\n', '{"type":"x","payload_length":-1}\n', '{"type":"x","data":[1]}\n']) {
      assert.equal(refusal(Buffer.from(bad)).code, 'invalid_event', bad);
    }
    assert.equal(refusal(frame({ type: 'x' }, '[1]')).code, 'invalid_event');
  });

  test('accepts null lengths and data as Python clients write them, and skips blank lines', () => {
    const events = readAll(Buffer.from('\n{"type":"ping","data":null,"data_length":null,"payload_length":null,"version":"1.5.3"}\n'));
    assert.deepEqual(events, [{ type: 'ping', data: {} }]);
  });
});

describe('encodeEvent', () => {
  test('writes the version, the data as additional data and the payload, which the reader reads back', () => {
    const payload = Buffer.from([9, 8, 7, 6]);
    const bytes = encodeEvent('audio-chunk', { rate: 22050, width: 2, channels: 1 }, payload);
    const header = JSON.parse(bytes.subarray(0, bytes.indexOf(10)).toString()) as Record<string, unknown>;
    assert.equal(header.version, WYOMING_VERSION);
    assert.equal(header.payload_length, 4);
    assert.deepEqual(readAll(bytes), [{ type: 'audio-chunk', data: { rate: 22050, width: 2, channels: 1 }, payload }]);
  });

  test('writes an event without data as its header line alone', () => {
    assert.equal(encodeEvent('synthesize-stopped').toString(), `{"type":"synthesize-stopped","version":"${WYOMING_VERSION}"}\n`);
  });
});
