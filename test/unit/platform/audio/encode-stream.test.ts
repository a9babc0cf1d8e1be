import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import { after, test } from 'node:test';
import { decodeToPcm } from '../../../../src/platform/audio/decode.js';
import { encodePcm } from '../../../../src/platform/audio/encode.js';
import { openStreamingEncoder } from '../../../../src/platform/audio/encode-stream.js';
import { durationOf } from '../../../../src/platform/audio/pcm.js';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { join, sine } from '../../../helpers/audio-signals.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const RATE = 16000;
/** Three "sentences" of different lengths and tones. */
const PIECES = [sine(220, 0.7, RATE), sine(330, 1.1, RATE), sine(440, 0.4, RATE)];
const WHOLE = join(...PIECES);

const dir = await tempDir('timbre-encode-stream-');
after(() => removeDir(dir));
let files = 0;

/** The pieces encoded into a file, and streamed too unless `toFileOnly`. */
async function streamPieces(format: 'wav' | 'pcm' | 'mp3' | 'ogg' | 'aac' | 'flac', sampleRate?: number, toFileOnly = false) {
  const chunks: Buffer[] = [];
  const file = joinPath(dir, `stream-${files++}.${format}`);
  const onChunk = toFileOnly ? undefined : (bytes: Buffer) => void chunks.push(bytes);
  const encoder = await openStreamingEncoder({ format, inputRate: RATE, sampleRate, file, onChunk });
  const sentAfterFirst: number[] = [];
  for (const piece of PIECES) {
    await encoder.write(piece);
    sentAfterFirst.push(chunks.length);
  }
  await encoder.finish();
  return { streamed: Buffer.concat(chunks), stored: await readFile(file), encoder, sentAfterFirst };
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
  test(`${format}: the stream decodes to the whole audio, and so does the stored file`, async () => {
    const { streamed, stored } = await streamPieces(format);
    for (const audio of [streamed, stored]) {
      const decoded = await decodeToPcm(audio, RATE);
      assert.ok(Math.abs(durationOf(decoded) - durationOf(WHOLE)) < 0.12, `${durationOf(decoded)} s`);
      assert.equal((await probeAudio(audio)).channels, 1);
    }
    if (format === 'ogg' || format === 'aac') assert.deepEqual(streamed, stored, 'the stored file is what was streamed');
  });
}

test('an MP3 or FLAC file states its length (written at the end, which a stream cannot), exactly when nobody streams it', async () => {
  for (const [format, toFileOnly, within] of [
    ['flac', false, 0.001],
    ['flac', true, 0.001],
    // A streamed MP3's packets are copied as they are: its length counts the encoder's padding.
    ['mp3', false, 0.1],
    ['mp3', true, 0.001],
  ] as const) {
    const { stored, streamed } = await streamPieces(format, undefined, toFileOnly);
    if (toFileOnly) assert.equal(streamed.length, 0);
    const probed = await probeAudio(stored);
    assert.ok(probed.duration !== null && Math.abs(probed.duration - durationOf(WHOLE)) < within, `${format}: ${probed.duration} s`);
  }
});

test('an aborted stream sends nothing more, stops its encoder and leaves only the file its caller removes', async () => {
  const chunks: Buffer[] = [];
  const file = joinPath(dir, 'aborted.mp3');
  const encoder = await openStreamingEncoder({ format: 'mp3', inputRate: RATE, file, onChunk: (bytes) => chunks.push(bytes) });
  await encoder.write(PIECES[0]!);
  encoder.abort();
  const sent = chunks.length;
  await encoder.write(PIECES[1]!);
  assert.equal(chunks.length, sent);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(
    (await readdir(dir)).filter((name) => name.startsWith('aborted')),
    [],
  );
});

test('a FLAC is sent once, complete, as stored: its header states the sample count and the MD5 of the audio', async () => {
  const { streamed, stored, sentAfterFirst } = await streamPieces('flac');
  assert.deepEqual(sentAfterFirst, [0, 0, 0], 'nothing is sent while the audio comes');
  assert.deepEqual(streamed, stored);
  // STREAMINFO (after `fLaC` and the block header): 36 bits of total samples from the low nibble of byte 21, then 16 bytes of MD5.
  assert.equal((streamed[21]! & 0x0f) * 2 ** 32 + streamed.readUInt32BE(22), WHOLE.samples.length);
  assert.notDeepEqual(streamed.subarray(26, 42), Buffer.alloc(16), 'the MD5 is filled in');
  assert.equal((await probeAudio(streamed)).duration, durationOf(WHOLE));
});
