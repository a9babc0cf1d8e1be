import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureSample } from '../../../../src/features/voices/sample-measures.js';

const RATE = 22050;

/** Three seconds of a harmonic tone at `f0` whose harmonics have the given amplitudes (1-based), with a pause of silence in the middle. */
function voicedTone(f0: number, amplitudes: number[]): Float32Array {
  const samples = new Float32Array(3 * RATE);
  for (let i = 0; i < samples.length; i++) {
    if (i > 1.4 * RATE && i < 1.6 * RATE) continue;
    const t = i / RATE;
    samples[i] = 0.3 * amplitudes.reduce((sum, amplitude, k) => sum + amplitude * Math.sin(2 * Math.PI * f0 * (k + 1) * t), 0);
  }
  return samples;
}

test('the median pitch of a tone is its fundamental, whatever its harmonics', () => {
  const measures = measureSample({ samples: voicedTone(140, [1, 0.5, 0.3]), sampleRate: RATE });
  assert.ok(Math.abs((measures.medianF0Hz ?? 0) - 140) < 2, `median F0 ${measures.medianF0Hz}`);
});

test('the centroid is the power-weighted mean frequency: two equal partials give their midpoint, more energy up high raises it', () => {
  // Partials at 200 and 1000 Hz (harmonics 1 and 5) of equal power: the centroid is 600 Hz.
  const even = measureSample({ samples: voicedTone(200, [1, 0, 0, 0, 1]), sampleRate: RATE });
  assert.ok(Math.abs((even.centroidHz ?? 0) - 600) < 30, `centroid ${even.centroidHz}`);
  const dull = measureSample({ samples: voicedTone(200, [1, 0.5, 0.25]), sampleRate: RATE });
  const bright = measureSample({ samples: voicedTone(200, [1, 0.5, 0.25, 0.8, 0.8, 0.8, 0.8, 0.8]), sampleRate: RATE });
  assert.ok((bright.centroidHz ?? 0) > (dull.centroidHz ?? Infinity) + 300, `bright ${bright.centroidHz} against dull ${dull.centroidHz}`);
});

test('silence and noise have no voiced frame, so nothing is measured', () => {
  assert.deepEqual(measureSample({ samples: new Float32Array(RATE), sampleRate: RATE }), { medianF0Hz: null, centroidHz: null });
  let seed = 1;
  const noise = Float32Array.from({ length: RATE }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.5);
  assert.deepEqual(measureSample({ samples: noise, sampleRate: RATE }), { medianF0Hz: null, centroidHz: null });
});
