import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeToPcm } from '../../../../src/platform/audio/decode.js';
import { encodePcm } from '../../../../src/platform/audio/encode.js';
import { openStreamingEncoder } from '../../../../src/platform/audio/encode-stream.js';
import { durationOf } from '../../../../src/platform/audio/pcm.js';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { join, sine } from '../../../helpers/audio-signals.js';

const RATE = 16000;
/** Three "sentences" of different lengths and tones. */
const PIECES = [sine(220, 0.7, RATE), sine(330, 1.1, RATE), sine(440, 0.4, RATE)];
const WHOLE = join(...PIECES);

async function streamPieces(format: 'wav' | 'pcm' | 'mp3' | 'ogg' | 'aac' | 'flac', sampleRate?: number) {
  const chunks: Buffer[] = [];
  const encoder = openStreamingEncoder({ format, inputRate: RATE, sampleRate, onChunk: (bytes) => chunks.push(bytes) });
  const sentAfterFirst: number[] = [];
  for (const piece of PIECES) {
    await encoder.write(piece);
    sentAfterFirst.push(chunks.length);
  }
  const stored = await encoder.finish();
  return { streamed: Buffer.concat(chunks), stored, encoder, sentAfterFirst };
}

test('a WAV streamed piece by piece is the whole audio, its header saying the length is unknown; the stored file has the real length', async () => {
  const { streamed, stored } = await streamPieces('wav');
  assert.equal(streamed.readUInt32LE(4), 0xffffffff);
  assert.equal(streamed.readUInt32LE(40), 0xffffffff);
  assert.deepEqual(stored, await encodePcm(WHOLE, 'wav'), 'the stored file is what encoding the whole gives');
  assert.deepEqual(streamed.subarray(44), stored.subarray(44));
});

test('raw pcm goes out as soon as each piece is written', async () => {
  const { streamed, sentAfterFirst } = await streamPieces('pcm');
  assert.deepEqual(sentAfterFirst, [1, 2, 3]);
  assert.equal(streamed.length, WHOLE.samples.length * 2);
});

test('a change of rate runs through one ffmpeg for the whole stream, without seams', async () => {
  const { streamed, encoder } = await streamPieces('pcm', 24000);
  assert.equal(encoder.sampleRate, 24000);
  assert.ok(Math.abs(streamed.length / 2 / 24000 - durationOf(WHOLE)) < 0.01, `${streamed.length} bytes`);
});

for (const format of ['mp3', 'ogg', 'aac', 'flac'] as const) {
  test(`${format}: the stream decodes to the whole audio`, async () => {
    const { streamed, stored } = await streamPieces(format);
    assert.deepEqual(streamed, stored, 'the stored file is what was streamed');
    const decoded = await decodeToPcm(streamed, RATE);
    assert.ok(Math.abs(durationOf(decoded) - durationOf(WHOLE)) < 0.12, `${durationOf(decoded)} s`);
    assert.equal((await probeAudio(streamed)).channels, 1);
  });
}

test('an aborted stream sends nothing more and stops its encoder', async () => {
  const chunks: Buffer[] = [];
  const encoder = openStreamingEncoder({ format: 'mp3', inputRate: RATE, onChunk: (bytes) => chunks.push(bytes) });
  await encoder.write(PIECES[0]!);
  encoder.abort();
  const sent = chunks.length;
  await encoder.write(PIECES[1]!);
  assert.equal(chunks.length, sent);
});
