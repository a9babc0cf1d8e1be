import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { test } from 'node:test';
import { changePitchTempo, resample } from '../../../../src/platform/audio/effects.js';
import type { EqualizerBand } from '../../../../src/platform/audio/conversion-schema.js';
import { convertVoice } from '../../../../src/platform/audio/voice-conversion.js';
import { measureLoudness, normalizeLoudness } from '../../../../src/platform/audio/loudness.js';
import { durationOf, type Pcm } from '../../../../src/platform/audio/pcm.js';
import { speechBounds } from '../../../../src/platform/audio/trim.js';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { dominantFrequency, join, noise, rmsDb, silence, sine } from '../../../helpers/audio-signals.js';

const RATE = 24000;

function assertNear(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);
}

// Loudness

test('a 1 kHz sine at half scale measures -9 LUFS (full-scale sine: -3.01) with a -6 dBTP peak', async () => {
  const loudness = await measureLoudness(sine(1000, 3, 48000, 0.5));
  assertNear(loudness.integratedLufs, -9.03, 0.5, 'integrated');
  assertNear(loudness.truePeakDb, -6.02, 0.5, 'true peak');
  assertNear(loudness.loudnessRangeLu, 0, 0.5, 'range');
});

test('measuring a file gives what measuring its samples gives', async () => {
  const dir = await mkdtemp(joinPath(tmpdir(), 'timbre-loudness-'));
  try {
    const tone = sine(1000, 3, RATE, 0.25);
    await writeFile(joinPath(dir, 'tone.wav'), encodeWav(tone));
    const fromFile = await measureLoudness(joinPath(dir, 'tone.wav'));
    assertNear(fromFile.integratedLufs, (await measureLoudness(tone)).integratedLufs, 0.1, 'integrated');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

for (const [name, input] of [
  ['a quiet tone', sine(440, 4, RATE, 0.03)],
  ['a loud tone', sine(440, 4, RATE, 0.9)],
  ['noise with pauses', join(noise(1, RATE, 0.1), silence(0.5, RATE), noise(2, RATE, 0.05, 7))],
] as const) {
  test(`normalizing ${name} reaches -16 LUFS within 1 LU, same rate and length`, async () => {
    const normalized = await normalizeLoudness(input);
    assert.equal(normalized.sampleRate, RATE);
    assertNear(normalized.samples.length, input.samples.length, RATE * 0.01, 'length');
    const loudness = await measureLoudness(normalized);
    assertNear(loudness.integratedLufs, -16, 1, 'integrated');
    assert.ok(loudness.truePeakDb <= -1.5 + 0.5, `true peak ${loudness.truePeakDb}`);
  });
}

test('silence, very short and empty input measure -Infinity and normalize unchanged', async () => {
  for (const input of [silence(2, RATE), sine(440, 0.1, RATE), silence(0, RATE)]) {
    assert.equal((await measureLoudness(input)).integratedLufs, -Infinity);
    assert.deepEqual(await normalizeLoudness(input), input);
  }
});

test('normalization targets outside what loudnorm accepts are refused', async () => {
  await assert.rejects(normalizeLoudness(sine(440, 1, RATE), 0), RangeError);
  await assert.rejects(normalizeLoudness(sine(440, 1, RATE), -16, Number.NaN), RangeError);
});

// Silence trimming

test('speech bounds run from the first to the last frame that reaches the threshold', () => {
  const input = join(silence(0.5, RATE), sine(300, 1, RATE), silence(0.7, RATE));
  const bounds = speechBounds(input);
  assert.ok(bounds);
  assertNear(bounds.start, 0.5, 0.01, 'sound start');
  assertNear(bounds.end, 1.5, 0.01, 'sound end');
});

test('a noise floor under the threshold counts as silence; all-silent input has no bounds', () => {
  const input = join(sine(300, 1, RATE), noise(1, RATE, 0.002));
  assertNear(speechBounds(input, { thresholdDb: -45 })?.end ?? 0, 1, 0.011, 'end before the noise');
  assert.equal(speechBounds(input, { thresholdDb: -70 })?.end, 2);
  assert.equal(speechBounds(silence(1, RATE)), null);
});

// Pitch, tempo, equalisation, resampling

const voiceLike = sine(220, 2, RATE, 0.5);

for (const formantPreserve of [false, true]) {
  test(`12 semitones up doubles the frequency and keeps the duration (formantPreserve ${formantPreserve})`, async () => {
    const shifted = await changePitchTempo(voiceLike, { semitones: 12, formantPreserve });
    assert.equal(shifted.sampleRate, RATE);
    assertNear(dominantFrequency(shifted), 440, 440 * 0.03, 'frequency');
    assertNear(durationOf(shifted), 2, 2 * 0.02, 'duration');
  });
}

test('pitch shifting keeps the end of the audio (rubberband alone drops the last ~70 ms)', async () => {
  const shifted = await changePitchTempo(voiceLike, { semitones: 12 });
  const lastTenth = { samples: shifted.samples.subarray(-RATE / 10), sampleRate: RATE };
  // The tone's RMS is -9 dB; a lost tail would be silence.
  assert.ok(rmsDb(lastTenth) > -12, `last 100 ms at ${rmsDb(lastTenth)} dB`);
});

test('12 semitones down halves the frequency', async () => {
  assertNear(dominantFrequency(await changePitchTempo(voiceLike, { semitones: -12 })), 110, 110 * 0.03, 'frequency');
});

test('tempo 2 halves the duration and keeps the pitch', async () => {
  const faster = await changePitchTempo(voiceLike, { tempo: 2 });
  assertNear(durationOf(faster), 1, 0.02, 'duration');
  assertNear(dominantFrequency(faster), 220, 220 * 0.03, 'frequency');
});

test('no change returns a copy; invalid factors are refused', async () => {
  const same = await changePitchTempo(voiceLike, {});
  assert.deepEqual(same, voiceLike);
  assert.notEqual(same.samples, voiceLike.samples);
  await assert.rejects(changePitchTempo(voiceLike, { tempo: 0 }), RangeError);
  await assert.rejects(changePitchTempo(voiceLike, { semitones: Number.POSITIVE_INFINITY }), RangeError);
});

test("a conversion's equalizer boosts the band it names and leaves distant ones", async () => {
  const band = [{ frequency: 2000, gainDb: 12, q: 2 }];
  const inBand = sine(2000, 1, RATE, 0.1);
  const outOfBand = sine(100, 1, RATE, 0.1);
  const equalize = (pcm: Pcm, equalizer: EqualizerBand[]) => convertVoice(pcm, { semitones: 0, formantScale: 1, tempo: 1, equalizer });
  assertNear(rmsDb(await equalize(inBand, band)) - rmsDb(inBand), 12, 1, 'boost in band');
  assertNear(rmsDb(await equalize(outOfBand, band)) - rmsDb(outOfBand), 0, 0.5, 'change out of band');
  const cut = await equalize(inBand, [
    { frequency: 2000, gainDb: -6 },
    { frequency: 2000, gainDb: -6 },
  ]);
  assertNear(rmsDb(cut) - rmsDb(inBand), -12, 1, 'two chained cuts');
  await assert.rejects(equalize(inBand, [{ frequency: 20000, gainDb: 3 }]), RangeError);
});

test('resample changes the rate, not the duration or the pitch', async () => {
  const resampled = await resample(voiceLike, 16000);
  assert.equal(resampled.sampleRate, 16000);
  assertNear(durationOf(resampled), 2, 0.001, 'duration');
  assertNear(dominantFrequency(resampled), 220, 1, 'frequency');
});
