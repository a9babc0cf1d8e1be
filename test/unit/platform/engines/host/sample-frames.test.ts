import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { floatFromInt16 } from '../../../../../src/platform/audio/wav.js';
import { FrameReader, FrameWriter, MIN_FRAME_BYTES } from '../../../../../src/platform/engines/host/sample-frames.js';

const large = (length: number, seed: number) => Float32Array.from({ length }, (_, index) => Math.sin(index * seed));

/** A writer and a reader over one in-memory pipe whose bytes arrive in chunks of `chunkBytes`. */
function pipePair(chunkBytes?: number) {
  const written = new PassThrough();
  const delivered = new PassThrough();
  const bytes = { sent: 0 };
  written.on('data', (chunk: Buffer) => {
    bytes.sent += chunk.length;
    for (let offset = 0; offset < chunk.length; offset += chunkBytes ?? chunk.length)
      delivered.write(chunk.subarray(offset, offset + (chunkBytes ?? chunk.length)));
  });
  return { writer: new FrameWriter(written), reader: new FrameReader(delivered), delivered, bytes };
}

describe('sample frames between an engine host and the supervisor', () => {
  test('large arrays travel as frames and come back where they were; small ones and other values stay in the message', async () => {
    const { writer, reader } = pipePair();
    const small = new Float32Array([0.5, -0.5]);
    const message = { pcm: { samples: large(100_000, 0.01), sampleRate: 16_000 }, words: [{ word: 'hi', start: 0, end: 1 }], small };
    const detached = await writer.detach(message);
    assert.deepEqual(detached, {
      value: { pcm: { samples: null, sampleRate: 16_000 }, words: message.words, small },
      frames: [{ frame: 1, path: ['pcm', 'samples'] }],
    });
    assert.ok(message.pcm.samples instanceof Float32Array, 'the value sent is left as it was');
    assert.deepEqual(await reader.attach(detached.value, detached.frames), message);
  });

  test('frames split at any byte, several in one message and messages one after another, arrive intact', async () => {
    const { writer, reader } = pipePair(4099);
    const first = { a: large(MIN_FRAME_BYTES / 4, 0.3), list: [large(70_000, 0.7), 3] };
    const second = { b: large(50_000, 1.1) };
    const [one, two] = [await writer.detach(first), await writer.detach(second)];
    // Attached in the other order: each waits for its own frames only.
    assert.deepEqual(await reader.attach(two.value, two.frames), second);
    assert.deepEqual(await reader.attach(one.value, one.frames), first);
  });

  test('16-bit samples, as the built-in engines give them, travel in half the bytes and come back exactly', async () => {
    const { writer, reader, bytes } = pipePair(65_536);
    const int16 = Int16Array.from({ length: 100_000 }, (_, index) => Math.round(Math.sin(index / 7) * 32767) - (index % 2));
    int16[0] = -32768;
    const message = { samples: floatFromInt16(int16) };
    const detached = await writer.detach(message);
    assert.ok(bytes.sent < 100_000 * 2 + 100, `${bytes.sent} bytes for 100,000 samples`);
    assert.deepEqual(await reader.attach(detached.value, detached.frames), message);
  });

  test('a pipe that closes before a frame is complete fails the wait instead of hanging it', async () => {
    const { reader, delivered } = pipePair();
    const waiting = reader.attach({ samples: null }, [{ frame: 7, path: ['samples'] }]);
    delivered.destroy();
    await assert.rejects(waiting, /sample pipe/);
  });
});
