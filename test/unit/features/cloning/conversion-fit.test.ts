import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VoiceAnalysis } from '../../../../src/platform/audio/analyse/index.js';
import { firstFit, milderFit, nextFit, withPitch } from '../../../../src/features/cloning/conversion-fit.js';
import { convertVoice } from '../../../../src/platform/audio/voice-conversion.js';
import { pitchStats } from '../../../../src/platform/audio/analyse/index.js';
import { dominantFrequency, sine } from '../../../helpers/audio-signals.js';

function analysis(f0: number, rate: number, formants: number[], ltas: number[] = new Array(12).fill(0)): VoiceAnalysis {
  return {
    durationSeconds: 5,
    pitch: { medianHz: f0, p10Hz: f0 * 0.8, p90Hz: f0 * 1.2, rangeSemitones: 6, voicedFraction: 0.6, voicedFrames: 300 },
    formants: { meanHz: formants } as VoiceAnalysis['formants'],
    spectrum: { ltasDb: ltas, tiltDbPerOctave: -6, centroidHz: 1000 } as VoiceAnalysis['spectrum'],
    mfcc: { mean: [], std: [] } as unknown as VoiceAnalysis['mfcc'],
    rate: { syllables: 20, speakingSeconds: 5, articulationSeconds: 5, syllablesPerSecond: rate, articulationRate: rate },
  };
}

test('the first fit moves pitch natively within the engine range and the rest by the conversion', () => {
  const source = analysis(100, 4, [500, 1500, 2500]);
  const native = firstFit(source, analysis(250, 4, [500, 1500, 2500]), { min: 0.5, max: 2 });
  assert.equal(native.enginePitch, 2);
  assert.ok(Math.abs(native.conversion.semitones - 12 * Math.log2(1.25)) < 0.01);
  const audioOnly = firstFit(source, analysis(200, 4, [500, 1500, 2500]), undefined);
  assert.equal(audioOnly.enginePitch, 1);
  assert.equal(audioOnly.conversion.semitones, 12);
  assert.deepEqual(audioOnly.conversion.equalizer, []);
});

test('speed follows the rate half-way, within 0.8..1.25; formants move half-way', () => {
  const fit = firstFit(analysis(100, 4, [500, 1500, 2500]), analysis(100, 3, [550, 1650, 2750]), undefined);
  assert.ok(Math.abs(fit.engineSpeed - Math.sqrt(0.75)) < 0.001, String(fit.engineSpeed));
  assert.ok(Math.abs(fit.conversion.formantScale - Math.sqrt(1.1)) < 0.002, String(fit.conversion.formantScale));
  assert.equal(firstFit(analysis(100, 8, [500]), analysis(100, 2, [500]), undefined).engineSpeed, 0.8);
});

test('later steps correct the remaining pitch error and add equalizer bands toward the target spectrum', () => {
  const target = analysis(200, 4, [500, 1500, 2500], [6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6]);
  const fit = withPitch({ enginePitch: 1, engineSpeed: 1, conversion: { semitones: 0, formantScale: 1, tempo: 1, equalizer: [] } }, 1.5, { min: 0.5, max: 3 });
  const next = nextFit(fit, analysis(190, 4, [500, 1500, 2500]), target, { min: 0.5, max: 3 }, 8000);
  assert.ok(Math.abs(next.enginePitch - 1.5 * (200 / 190)) < 0.002);
  const low = next.conversion.equalizer.find((band) => band.frequency === 125);
  const high = next.conversion.equalizer.find((band) => band.frequency === 5656.9);
  assert.ok(low && Math.abs(low.gainDb - 4.2) < 0.05, JSON.stringify(next.conversion.equalizer));
  assert.ok(high && Math.abs(high.gainDb + 4.2) < 0.05);
  const milder = milderFit(next);
  assert.ok(Math.abs(milder.conversion.equalizer[0]!.gainDb - 2.1) < 0.05);
});

test('the conversion chain shifts pitch and keeps the length', async () => {
  const tone = sine(200, 2, 16000);
  const up = await convertVoice(tone, { semitones: 12, formantScale: 1, tempo: 1, equalizer: [] });
  assert.equal(up.samples.length, tone.samples.length);
  assert.ok(Math.abs(dominantFrequency(up) / 400 - 1) < 0.03, String(dominantFrequency(up)));
  const slower = await convertVoice(tone, { semitones: 0, formantScale: 1, tempo: 0.5, equalizer: [{ frequency: 1000, gainDb: 6, q: 1 }] });
  assert.equal(slower.samples.length, tone.samples.length * 2);
  assert.ok(Math.abs(pitchStats(slower).medianHz / 200 - 1) < 0.03);
});
