import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bestSpeechWindow,
  clippedFraction,
  energySpeechRegions,
  estimateSnrDb,
  joinSpeech,
  mergeRegions,
  peakLevelDb,
  splitWindows,
  totalSeconds,
} from '../../../../src/features/cloning/speech-quality.js';
import { join, noise, silence, sine } from '../../../helpers/audio-signals.js';

const RATE = 16000;

test('speech regions by level: tones between silences, short gaps bridged, blips dropped', () => {
  const pcm = join(silence(1, RATE), sine(200, 1, RATE), silence(0.2, RATE), sine(200, 1, RATE), silence(1, RATE), sine(200, 0.05, RATE), silence(1, RATE));
  const regions = energySpeechRegions(pcm);
  assert.equal(regions.length, 1, JSON.stringify(regions));
  assert.ok(Math.abs(regions[0]!.start - 1) < 0.05 && Math.abs(regions[0]!.end - 3.2) < 0.05, JSON.stringify(regions));
  assert.ok(Math.abs(totalSeconds(regions) - 2.2) < 0.1);
});

test('joined speech keeps the regions and shortens pauses to 0.3 s', () => {
  const pcm = join(sine(200, 1, RATE), silence(2, RATE), sine(200, 1, RATE));
  const joined = joinSpeech(pcm, [
    { start: 0, end: 1 },
    { start: 3, end: 4 },
  ]);
  assert.equal(joined.samples.length, Math.round(2.3 * RATE));
});

test('the best window holds the most speech', () => {
  const regions = [
    { start: 0, end: 2 },
    { start: 10, end: 14 },
    { start: 15, end: 18 },
    { start: 30, end: 31 },
  ];
  const window = bestSpeechWindow(regions, 10);
  assert.deepEqual(window, [
    { start: 10, end: 14 },
    { start: 15, end: 18 },
  ]);
  assert.deepEqual(bestSpeechWindow([{ start: 0, end: 40 }], 30), [{ start: 0, end: 30 }]);
  assert.deepEqual(
    mergeRegions(
      [
        { start: 2, end: 3 },
        { start: 0, end: 1 },
        { start: 3.2, end: 4 },
      ],
      0.3,
    ),
    [
      { start: 0, end: 1 },
      { start: 2, end: 4 },
    ],
  );
});

test('clipping, loudness and signal-to-noise are measured', () => {
  const clipped = { samples: Float32Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? 1 : 0.2)), sampleRate: RATE };
  assert.ok(Math.abs(clippedFraction(clipped) - 0.1) < 1e-9);
  assert.equal(clippedFraction(sine(200, 1, RATE, 0.5)), 0);
  assert.ok(peakLevelDb(silence(1, RATE)) < -100);
  const clean = join(sine(200, 1, RATE), silence(1, RATE), sine(300, 1, RATE), silence(1, RATE));
  const hiss = noise(4, RATE, 0.2);
  assert.ok(estimateSnrDb(clean) > 40, `clean ${estimateSnrDb(clean)}`);
  assert.ok(estimateSnrDb(hiss) < 6, `noise ${estimateSnrDb(hiss)}`);
});

test('windows split evenly, dropping a short tail', () => {
  assert.equal(splitWindows(silence(10, RATE), 3).length, 3);
  assert.equal(splitWindows(silence(10.6, RATE), 3).length, 4);
});
