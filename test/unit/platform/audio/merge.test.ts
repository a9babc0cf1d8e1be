import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureLoudness } from '../../../../src/platform/audio/loudness.js';
import { MERGE_DEFAULTS, mergeChunks, type MergeChunk } from '../../../../src/platform/audio/merge.js';
import { durationOf, rms, type Pcm } from '../../../../src/platform/audio/pcm.js';
import { TRUE_PEAK_CEILING_DBTP } from '../../../../src/platform/audio/peak-ceiling.js';
import { noise, sine } from '../../../helpers/audio-signals.js';

const RATE = 24000;
const MS = 0.001;

function assertNear(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);
}

/** Samples from `start` to `end` seconds. */
function span(pcm: Pcm, start: number, end: number): Float32Array {
  return pcm.samples.subarray(Math.round(start * pcm.sampleRate), Math.round(end * pcm.sampleRate));
}

/** Tones and noise bursts of different lengths and levels; the second ends a paragraph. */
function sentences(): MergeChunk[] {
  return [
    { pcm: sine(220, 1.2, RATE, 0.3) },
    { pcm: noise(0.7, RATE, 0.05, 7), paragraphEnd: true },
    { pcm: sine(330, 0.45, RATE, 0.6) },
    { pcm: noise(0.9, RATE, 0.4, 3) },
  ];
}

const totalSeconds = (chunks: MergeChunk[]) => chunks.reduce((sum, chunk) => sum + durationOf(chunk.pcm), 0);

test('the defaults are documented values: 350 ms and 800 ms pauses, no crossfade, -16 LUFS', () => {
  assert.deepEqual({ ...MERGE_DEFAULTS }, { pauseMs: 350, paragraphPauseMs: 800, crossfadeMs: 0, targetLufs: -16 });
});

test('chunks are joined in order with sentence and paragraph pauses, placed where they are', async () => {
  const chunks = sentences();
  const { pcm, placements } = await mergeChunks(chunks, { normalize: false });
  assert.equal(pcm.sampleRate, RATE);
  assertNear(durationOf(pcm), totalSeconds(chunks) + 0.35 + 0.8 + 0.35, MS, 'duration');
  const expected = [
    [0, 1.2],
    [1.55, 2.25],
    [3.05, 3.5],
    [3.85, 4.75],
  ];
  assert.deepEqual(
    placements.map((placement) => placement.index),
    [0, 1, 2, 3],
  );
  placements.forEach((placement, i) => {
    assertNear(placement.start, expected[i]![0]!, MS, `chunk ${i} start`);
    assertNear(placement.end, expected[i]![1]!, MS, `chunk ${i} end`);
  });
  // Pauses are silence; each chunk's audio is there unchanged inside its 5 ms edge fades.
  assert.equal(rms(span(pcm, 1.2, 1.55)), 0);
  assert.equal(rms(span(pcm, 2.25, 3.05)), 0);
  chunks.forEach((chunk, i) => {
    const inner = span(pcm, placements[i]!.start + 0.005, placements[i]!.end - 0.005);
    assert.deepEqual(inner, span(chunk.pcm, 0.005, durationOf(chunk.pcm) - 0.005), `chunk ${i} audio`);
  });
});

test('edges next to a pause fade out and in, without changing the length', async () => {
  // A cosine starts at its peak and is cut mid-waveform: without fades both edges would click.
  // At 0.8 (-1.9 dBFS) it stays under the true-peak ceiling, which would otherwise reshape it.
  const loud = { samples: Float32Array.from({ length: RATE / 2 }, (_, i) => 0.8 * Math.cos((2 * Math.PI * 1000 * i) / RATE)), sampleRate: RATE };
  const { pcm } = await mergeChunks([{ pcm: loud }, { pcm: loud }], { normalize: false, pauseMs: 100 });
  assertNear(durationOf(pcm), 1.1, MS, 'duration');
  const lastOfFirst = Math.round(0.5 * RATE) - 1;
  const firstOfSecond = Math.round(0.6 * RATE);
  assert.ok(Math.abs(pcm.samples[lastOfFirst]!) < 0.01, `fade-out ends at ${pcm.samples[lastOfFirst]}`);
  assert.ok(Math.abs(pcm.samples[firstOfSecond]!) < 0.01, `fade-in starts at ${pcm.samples[firstOfSecond]}`);
  assert.ok(Math.abs(pcm.samples[0]!) > 0.75, 'the outer start is left alone');
});

test('pause lengths are options', async () => {
  const chunks = sentences();
  const { pcm, placements } = await mergeChunks(chunks, { normalize: false, pauseMs: 120, paragraphPauseMs: 1500 });
  assertNear(durationOf(pcm), totalSeconds(chunks) + 0.12 + 1.5 + 0.12, MS, 'duration');
  assertNear(placements[2]!.start - placements[1]!.end, 1.5, MS, 'paragraph pause');
});

test('with no pause, a crossfade overlaps neighbours and shortens the result by it per join', async () => {
  const chunks = [{ pcm: noise(1, RATE, 0.3, 1) }, { pcm: noise(0.8, RATE, 0.3, 2) }, { pcm: noise(0.6, RATE, 0.3, 3) }];
  const { pcm, placements } = await mergeChunks(chunks, { normalize: false, pauseMs: 0, crossfadeMs: 40 });
  assertNear(durationOf(pcm), 2.4 - 2 * 0.04, MS, 'duration');
  assertNear(placements[1]!.start, placements[0]!.end - 0.04, MS, 'first overlap');
  assertNear(placements[2]!.start, placements[1]!.end - 0.04, MS, 'second overlap');
  // Equal power: uncorrelated noise keeps its level through the overlap, no dip.
  const overlapDb = 20 * Math.log10(rms(span(pcm, placements[1]!.start, placements[0]!.end)));
  const steadyDb = 20 * Math.log10(rms(span(pcm, 0.2, 0.8)));
  assertNear(overlapDb, steadyDb, 1, 'level in the overlap (dB)');
});

test('a crossfade does not apply across a pause', async () => {
  const chunks = sentences();
  const { pcm } = await mergeChunks(chunks, { normalize: false, pauseMs: 0, crossfadeMs: 50 });
  // Two sentence joins crossfade; the paragraph join keeps its 800 ms pause.
  assertNear(durationOf(pcm), totalSeconds(chunks) - 2 * 0.05 + 0.8, MS, 'duration');
  const { pcm: paused } = await mergeChunks(chunks, { normalize: false, crossfadeMs: 50 });
  assertNear(durationOf(paused), totalSeconds(chunks) + 0.35 + 0.8 + 0.35, MS, 'duration with pauses');
});

test('normalisation brings the merged audio to -16 LUFS and keeps the duration and placements', async () => {
  const chunks = sentences();
  const plain = await mergeChunks(chunks, { normalize: false });
  const { pcm, placements } = await mergeChunks(chunks);
  assertNear(durationOf(pcm), totalSeconds(chunks) + 0.35 + 0.8 + 0.35, 50 * MS, 'duration');
  assert.deepEqual(placements, plain.placements);
  assertNear((await measureLoudness(pcm)).integratedLufs, -16, 1, 'integrated loudness');
});

test('quiet input is raised to another target loudness', async () => {
  const chunks = [{ pcm: sine(440, 1.5, RATE, 0.01) }, { pcm: noise(1.2, RATE, 0.02, 5) }];
  const { pcm } = await mergeChunks(chunks, { targetLufs: -20 });
  assertNear((await measureLoudness(pcm)).integratedLufs, -20, 1, 'integrated loudness');
});

test("chunks at other rates are resampled to the first chunk's rate, or to the one asked for", async () => {
  const chunks = [{ pcm: sine(300, 0.8, 22050) }, { pcm: noise(0.5, 16000, 0.2) }, { pcm: sine(500, 0.6, 44100) }];
  const first = await mergeChunks(chunks, { normalize: false });
  assert.equal(first.pcm.sampleRate, 22050);
  assertNear(durationOf(first.pcm), 1.9 + 2 * 0.35, MS, 'duration at 22.05 kHz');
  assertNear(first.placements[2]!.end - first.placements[2]!.start, 0.6, MS, 'resampled chunk length');
  const asked = await mergeChunks(chunks, { sampleRate: RATE });
  assert.equal(asked.pcm.sampleRate, RATE);
  assertNear(durationOf(asked.pcm), 1.9 + 2 * 0.35, 50 * MS, 'duration at 24 kHz');
  assertNear((await measureLoudness(asked.pcm)).integratedLufs, -16, 1, 'integrated loudness');
});

test('one chunk merges to itself', async () => {
  const chunk = sine(200, 0.7, RATE);
  const { pcm, placements } = await mergeChunks([{ pcm: chunk, paragraphEnd: true }], { normalize: false });
  assert.deepEqual(pcm, chunk);
  assert.deepEqual(placements, [{ index: 0, start: 0, end: 0.7 }]);
});

test('no chunks, negative pauses and impossible rates are refused', async () => {
  await assert.rejects(mergeChunks([]), RangeError);
  await assert.rejects(mergeChunks(sentences(), { pauseMs: -1 }), RangeError);
  await assert.rejects(mergeChunks(sentences(), { crossfadeMs: Number.NaN }), RangeError);
  await assert.rejects(mergeChunks(sentences(), { sampleRate: 10 }), RangeError);
});

test('a cancelled merge rejects with an AbortError', async () => {
  const controller = new AbortController();
  controller.abort();
  const chunks = [{ pcm: sine(300, 0.5, 16000) }, { pcm: sine(300, 0.5, 22050) }];
  await assert.rejects(mergeChunks(chunks, { signal: controller.signal }), { name: 'AbortError' });
});

test('a merge whose chunks would pass the true-peak ceiling is limited under it; the length is kept', async () => {
  const loud = (seconds: number, seed: number) => ({ pcm: noise(seconds, RATE, 1.4, seed) });
  const chunks = [loud(1, 4), loud(0.7, 5)];
  const { pcm } = await mergeChunks(chunks, { normalize: false });
  assertNear(durationOf(pcm), 1.7 + MERGE_DEFAULTS.pauseMs / 1000, MS, 'duration');
  const { truePeakDb } = await measureLoudness(pcm);
  assert.ok(truePeakDb <= TRUE_PEAK_CEILING_DBTP, `true peak ${truePeakDb} dBTP`);
});
