import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyseVoice,
  fftPlan,
  powerSpectrum,
  formantStats,
  melFilterbank,
  pitchStats,
  pitchTrack,
  rateStats,
  spectrumStats,
  withDeltas,
} from '../../../../../src/platform/audio/analyse/index.js';
import { resample } from '../../../../../src/platform/audio/analyse/resample.js';
import type { Pcm } from '../../../../../src/platform/audio/pcm.js';

/** Deterministic noise (a fixed LCG), so a failure reproduces. */
function noise(length: number, seed = 1): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  });
}

/** Harmonics 1..N below Nyquist with 1/k amplitudes: a buzzy, voice-like periodic tone. */
function harmonicTone(f0: number, seconds: number, sampleRate: number): Pcm {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let k = 1; k * f0 < sampleRate / 2 && k <= 30; k++) {
    for (let n = 0; n < samples.length; n++) samples[n] = samples[n]! + (0.3 / k) * Math.sin((2 * Math.PI * k * f0 * n) / sampleRate);
  }
  return { samples, sampleRate };
}

/** An impulse train at f0 through three two-pole resonators: a synthetic vowel. */
function vowel(f0: number, formants: number[], sampleRate: number, seconds = 1): Pcm {
  let signal = new Float64Array(Math.round(seconds * sampleRate));
  for (let n = 0; n < signal.length; n += Math.round(sampleRate / f0)) signal[n] = 1;
  for (const hz of formants) {
    const r = Math.exp((-Math.PI * 80) / sampleRate);
    const [a1, a2] = [2 * r * Math.cos((2 * Math.PI * hz) / sampleRate), -r * r];
    const out = new Float64Array(signal.length);
    for (let n = 0; n < signal.length; n++) out[n] = signal[n]! + a1 * (out[n - 1] ?? 0) + a2 * (out[n - 2] ?? 0);
    signal = out;
  }
  const peak = signal.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  return { samples: Float32Array.from(signal, (value) => (0.5 * value) / peak), sampleRate };
}

/** White noise through a one-pole low-pass: energy falls with frequency, like speech. */
function lowPassedNoise(length: number, sampleRate: number): Pcm {
  const white = noise(length, 7);
  const samples = new Float32Array(length);
  for (let n = 1; n < length; n++) samples[n] = 0.9 * samples[n - 1]! + 0.1 * white[n]!;
  return { samples, sampleRate };
}

describe('fft', () => {
  it('matches a direct DFT', () => {
    const size = 64;
    const input = noise(size, 3);
    const data = new Float64Array(2 * size);
    input.forEach((x, n) => (data[2 * n] = x));
    const spectrum = new Float64Array(2 * size);
    fftPlan(size).transform(spectrum, data);
    const re = spectrum.filter((_, i) => i % 2 === 0);
    const im = spectrum.filter((_, i) => i % 2 === 1);
    for (const k of [0, 1, 5, 31, 32, 63]) {
      let expectRe = 0;
      let expectIm = 0;
      input.forEach((x, n) => {
        expectRe += x * Math.cos((2 * Math.PI * k * n) / size);
        expectIm -= x * Math.sin((2 * Math.PI * k * n) / size);
      });
      assert.ok(Math.abs(re[k]! - expectRe) < 1e-9 && Math.abs(im[k]! - expectIm) < 1e-9, `bin ${k}`);
    }
  });

  it('gives the power of a sine in its bin, scaled to the mean square', () => {
    const size = 512;
    const frame = Float64Array.from({ length: size }, (_, n) => Math.sin((2 * Math.PI * 32 * n) / size));
    const power = powerSpectrum(frame, size);
    assert.ok(Math.abs(power[32]! - size / 4) < 1e-9, 'all the energy in bin 32');
    assert.ok(
      power.every((value, k) => k === 32 || value < 1e-18),
      'none elsewhere',
    );
  });
});

describe('pitch', () => {
  for (const [f0, rate] of [
    [120, 16000],
    [120, 44100],
    [220, 22050],
    [220, 16000],
  ] as const) {
    it(`finds ${f0} Hz in a harmonic tone at ${rate} Hz within 3 %`, () => {
      const stats = pitchStats(harmonicTone(f0, 1, rate));
      assert.ok(Math.abs(stats.medianHz - f0) / f0 < 0.03, `median ${stats.medianHz}`);
      assert.ok(stats.voicedFraction > 0.9, `voiced fraction ${stats.voicedFraction}`);
      assert.ok(stats.rangeSemitones < 0.5, `range ${stats.rangeSemitones}`);
    });
  }

  it('calls white noise unvoiced', () => {
    const stats = pitchStats({ samples: noise(16000), sampleRate: 16000 });
    assert.ok(stats.voicedFraction < 0.05, `voiced fraction ${stats.voicedFraction}`);
  });

  it('leaves silence unvoiced and not sounding', () => {
    const track = pitchTrack({ samples: new Float32Array(8000), sampleRate: 16000 });
    assert.ok(track.every((frame) => frame.f0 === 0 && !frame.sounding));
  });
});

describe('formants', () => {
  it('recovers the resonances of a synthetic vowel within 10 %', async () => {
    const targets = [700, 1220, 2600];
    const stats = await formantStats(vowel(120, targets, 16000));
    [stats.f1Hz, stats.f2Hz, stats.f3Hz].forEach((hz, i) => {
      assert.ok(Math.abs(hz - targets[i]!) / targets[i]! < 0.1, `F${i + 1} ${hz} vs ${targets[i]}`);
    });
  });
});

describe('spectrum', () => {
  it('puts white noise flat and low-passed noise on a falling tilt', () => {
    const white = spectrumStats({ samples: noise(32000), sampleRate: 16000 });
    const pinkish = spectrumStats(lowPassedNoise(32000, 16000));
    assert.ok(Math.abs(white.tiltDbPerOctave) < 1, `white ${white.tiltDbPerOctave}`);
    assert.ok(pinkish.tiltDbPerOctave < white.tiltDbPerOctave - 2, `pink-ish ${pinkish.tiltDbPerOctave}`);
    assert.ok(pinkish.centroidHz < white.centroidHz);
    assert.ok(Math.abs(white.centroidHz - 4000) < 200, `white centroid ${white.centroidHz}`);
  });
});

describe('mfcc', () => {
  it('lays out triangular filters that cover the band', () => {
    const bank = melFilterbank(512, 16000, 26, 20, 8000);
    assert.equal(bank.length, 26);
    assert.ok(bank.every((filter) => filter.weights.length > 0 && Math.max(...filter.weights) <= 1));
  });

  it('gives zero deltas for a steady signal', () => {
    const frames = withDeltas(Array.from({ length: 5 }, () => Float64Array.from([1, 2, 3])));
    assert.deepEqual(Array.from(frames[2]!), [1, 2, 3, 0, 0, 0]);
  });
});

describe('resampling before analysis (windowed sinc)', () => {
  const tone = (hz: number, rate: number): Pcm => ({
    samples: Float32Array.from({ length: rate }, (_, n) => 0.5 * Math.sin((2 * Math.PI * hz * n) / rate)),
    sampleRate: rate,
  });
  const levelDb = (pcm: Pcm) => {
    const middle = pcm.samples.subarray(pcm.sampleRate / 10, (pcm.sampleRate * 9) / 10);
    return 10 * Math.log10(middle.reduce((sum, x) => sum + x * x, 0) / middle.length);
  };

  // Measured: 7 kHz −1.47 dB (ffmpeg −0.39), a 9 kHz alias −46.9 dB (ffmpeg −61.5), 12 kHz −86.8 dB
  // (ffmpeg −103.6), 5.5 kHz into 10 kHz −36.1 dB (ffmpeg −43.5).
  it('keeps tones in the band at their level and pitch, and rejects what would alias', async () => {
    const at = async (hz: number, from: number, to: number) => levelDb(resample(tone(hz, from), to)) - levelDb(tone(hz, from));
    assert.ok(Math.abs(await at(1000, 44100, 16000)) < 0.05, '1 kHz 44.1 → 16 kHz');
    assert.ok(Math.abs(await at(7000, 48000, 16000)) < 1.6, '7 kHz, near the new Nyquist');
    assert.ok((await at(9000, 48000, 16000)) < -45, '9 kHz would alias to 7 kHz');
    assert.ok((await at(5500, 22050, 10000)) < -35, '5.5 kHz into 10 kHz (the formant analysis rate)');
    const stats = pitchStats(resample(harmonicTone(150, 0.5, 44100), 16000));
    assert.ok(Math.abs(stats.medianHz - 150) < 2, `median ${stats.medianHz}`);
  });
});

describe('speaking rate', () => {
  it('counts 4 syllable-like pulses per second', () => {
    const tone = harmonicTone(130, 3, 16000);
    tone.samples.forEach((x, n) => {
      tone.samples[n] = x * Math.max(0, Math.sin((2 * Math.PI * 4 * n) / 16000)) ** 2;
    });
    const rate = rateStats(tone);
    assert.ok(Math.abs(rate.syllablesPerSecond - 4) < 0.5, `rate ${rate.syllablesPerSecond}`);
  });
});

describe('analyseVoice', () => {
  it('describes a voice-like signal in one object', async () => {
    const analysis = await analyseVoice(vowel(200, [800, 1400, 2800], 22050, 2));
    assert.ok(Math.abs(analysis.pitch.medianHz - 200) < 6);
    assert.equal(analysis.mfcc.mean.length, 12);
    assert.equal(analysis.spectrum.ltasDb.length, 12);
    assert.ok(Math.abs(analysis.durationSeconds - 2) < 0.01);
  });
});
