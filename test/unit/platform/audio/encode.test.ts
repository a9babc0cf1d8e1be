import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { decodeToPcm } from '../../../../src/platform/audio/decode.js';
import {
  AudioFormatSchema,
  CONTENT_TYPES,
  contentTypeOf,
  encodedRate,
  encodePcm,
  FILE_EXTENSIONS,
  type AudioFormat,
} from '../../../../src/platform/audio/encode.js';
import { durationOf } from '../../../../src/platform/audio/pcm.js';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { sine } from '../../../helpers/audio-signals.js';
import { EngineError } from '../../../../src/platform/errors.js';

const RATE = 22050;
const tone = sine(440, 1.5, RATE);

type FileFormat = Exclude<AudioFormat, 'pcm'>;

/** How a format's file begins. MP3 from ffmpeg opens with an ID3v2 tag; AAC with an ADTS sync word. */
const MAGIC: Record<FileFormat, string> = { wav: 'RIFF', 'wav-float': 'RIFF', mp3: 'ID3', ogg: 'OggS', flac: 'fLaC', aac: '\xff\xf1' };
/** Decoded duration tolerance: lossless formats are exact; MP3 and Opus are gapless, within a frame; raw ADTS keeps AAC's priming and padding (about two frames). */
const TOLERANCE: Record<AudioFormat, number> = { wav: 0.001, 'wav-float': 0.001, flac: 0.001, pcm: 0.001, mp3: 0.03, ogg: 0.03, aac: 0.1 };
/**
 * A container's stated duration may include the encoder's padding (MP3: up to ~2 frames); raw
 * ADTS has no duration field, so ffprobe estimates it from the bit rate.
 */
const PROBE_TOLERANCE: Record<AudioFormat, number> = { ...TOLERANCE, mp3: 0.1, ogg: 0.03, aac: 0.3 };

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'timbre-audio-test-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** An empty directory of its own for each test, so listings show only that test's files. */
function emptyDir(): Promise<string> {
  return mkdtemp(join(root, 'case-'));
}

for (const [format, magic] of Object.entries(MAGIC) as [FileFormat, string][]) {
  test(`${format}: starts with its magic bytes and decodes back to the same duration`, async () => {
    const encoded = await encodePcm(tone, format);
    assert.equal(encoded.toString('latin1', 0, magic.length), magic);
    const decoded = await decodeToPcm(encoded, RATE);
    assert.ok(Math.abs(durationOf(decoded) - 1.5) <= TOLERANCE[format], `decoded ${durationOf(decoded)} s`);
    const info = await probeAudio(encoded);
    assert.ok(info.duration !== null && Math.abs(info.duration - 1.5) <= PROBE_TOLERANCE[format], `probed ${info.duration} s`);
    assert.equal(info.channels, 1);
  });
}

test('pcm: raw signed 16-bit little-endian samples, nothing else', async () => {
  const encoded = await encodePcm(tone, 'pcm');
  assert.equal(encoded.length, tone.samples.length * 2);
  const quarter = Math.round(RATE / 440 / 4); // a sine peak
  assert.ok(Math.abs(encoded.readInt16LE(quarter * 2) / 32768 - tone.samples[quarter]!) < 0.01);
  assert.equal(contentTypeOf('pcm', 22_050), 'audio/pcm;rate=22050;channels=1', 'the rate travels with the samples');
});

test('content types and extensions name each format', () => {
  for (const format of AudioFormatSchema.enum) assert.ok(CONTENT_TYPES[format] && FILE_EXTENSIONS[format], format);
  assert.equal(CONTENT_TYPES.mp3, 'audio/mpeg');
  assert.match(CONTENT_TYPES.ogg, /^audio\/ogg; codecs=opus$/);
  assert.equal(CONTENT_TYPES.flac, 'audio/flac');
  assert.equal(CONTENT_TYPES['wav-float'], 'audio/wav');
  assert.equal(FILE_EXTENSIONS.ogg, 'ogg');
});

test('wav-float keeps samples exactly; a requested rate resamples', async () => {
  const float = await decodeToPcm(await encodePcm(tone, 'wav-float'), RATE);
  assert.deepEqual(float.samples, tone.samples);
  const resampled = await probeAudio(await encodePcm(tone, 'wav', { sampleRate: 16000 }));
  assert.equal(resampled.sampleRate, 16000);
  assert.ok(Math.abs(resampled.duration! - 1.5) < 0.001);
});

test('Opus and MP3 rates are raised to the next rate the encoder takes', () => {
  assert.equal(encodedRate('ogg', 22050), 24000);
  assert.equal(encodedRate('ogg', 44100), 48000);
  assert.equal(encodedRate('ogg', 16000), 16000);
  assert.equal(encodedRate('ogg', 96000), 48000);
  assert.equal(encodedRate('mp3', 22050), 22050);
  assert.equal(encodedRate('flac', 22050), 22050);
});

test('an already aborted signal rejects before anything runs', async () => {
  const dir = await emptyDir();
  const signal = AbortSignal.abort();
  await assert.rejects(encodePcm(tone, 'mp3', { signal }), { name: 'AbortError' });
  assert.deepEqual(await readdir(dir), []);
});

test('probeAudio describes a file and refuses what is not media with audio_unreadable', async () => {
  const dir = await emptyDir();
  const text = join(dir, 'notes.txt');
  await writeFile(text, 'This is a text file, not audio.\n'.repeat(20));
  await assert.rejects(probeAudio(text), (error: unknown) => error instanceof EngineError && error.code === 'audio_unreadable');
  await assert.rejects(probeAudio(Buffer.from('hello')), (error: unknown) => error instanceof EngineError && error.code === 'audio_unreadable');
  await assert.rejects(probeAudio(join(dir, 'missing.wav')), (error: unknown) => error instanceof EngineError && error.code === 'audio_unreadable');
  const info = await probeAudio(await encodePcm(tone, 'mp3'));
  assert.equal(info.codec, 'mp3');
  assert.equal(info.formatName, 'mp3');
  assert.equal(info.sampleRate, RATE);
  assert.ok(info.bitRate !== null && info.bitRate > 0);
});
