import type { Pcm } from '../pcm.js';
import { hannWindow, nextPowerOfTwo, powerSpectrum } from './fft.js';
import { frameCount, hopSamples, HOP_SECONDS, readFrame } from './frames.js';

/**
 * Long-term average spectrum (LTAS): the mean power spectral density over selected frames,
 * reported in half-octave bands, with the spectral tilt (slope of the band levels against
 * log2 frequency) and the spectral centroid. Band levels are power densities (per Hz), so white
 * noise is flat (tilt 0 dB/octave) and pink noise falls by 3 dB/octave.
 */

/** Half-octave band centres, 125 Hz … 5657 Hz (all below 8 kHz Nyquist with their edges). */
export const LTAS_BAND_CENTRES_HZ: readonly number[] = Array.from({ length: 12 }, (_, k) => 125 * 2 ** (k / 2));

export interface SpectrumStats {
  bandCentresHz: number[];
  /** Band power density in dB relative to the mean of all bands (level-independent). */
  ltasDb: number[];
  /** Least-squares slope of `ltasDb` over log2(frequency), dB per octave. */
  tiltDbPerOctave: number;
  /** Power-weighted mean frequency of the LTAS up to min(8 kHz, Nyquist), Hz. */
  centroidHz: number;
}

export interface LongTermSpectrum {
  /** Hz per bin. */
  binHz: number;
  /** Mean power per bin, bins 0..fftSize/2. */
  power: Float64Array;
}

/** Mean power spectrum over frames where `select[i]` is set (every frame when absent). */
export function longTermSpectrum(pcm: Pcm, select?: ArrayLike<number | boolean>, windowSeconds = 0.04): LongTermSpectrum {
  const length = Math.round(pcm.sampleRate * windowSeconds);
  const fftSize = nextPowerOfTwo(length);
  const window = hannWindow(length);
  const hop = hopSamples(pcm.sampleRate, HOP_SECONDS);
  const frame = new Float64Array(length);
  const power = new Float64Array(fftSize / 2 + 1);
  let used = 0;
  for (let i = 0; i < frameCount(pcm.samples.length, hop); i++) {
    if (select && !select[i]) continue;
    const spectrum = powerSpectrum(readFrame(pcm.samples, i * hop, frame, window), fftSize);
    for (let k = 0; k < power.length; k++) power[k] = power[k]! + spectrum[k]!;
    used++;
  }
  if (used > 0) for (let k = 0; k < power.length; k++) power[k] = power[k]! / used;
  return { binHz: pcm.sampleRate / fftSize, power };
}

/** Mean power of the bins within a quarter octave of `centre`. */
function bandPower(spectrum: LongTermSpectrum, centre: number): number {
  const low = Math.ceil((centre * 2 ** -0.25) / spectrum.binHz);
  const high = Math.min(spectrum.power.length - 1, Math.floor((centre * 2 ** 0.25) / spectrum.binHz));
  let sum = 0;
  for (let k = low; k <= high; k++) sum += spectrum.power[k]!;
  return high >= low ? sum / (high - low + 1) : 0;
}

/** Least-squares slope of y over x. */
export function slope(x: number[], y: number[]): number {
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  let num = 0;
  let den = 0;
  x.forEach((xi, i) => {
    num += (xi - mx) * (y[i]! - my);
    den += (xi - mx) ** 2;
  });
  return den > 0 ? num / den : 0;
}

export function summariseSpectrum(spectrum: LongTermSpectrum): SpectrumStats {
  const nyquist = spectrum.binHz * (spectrum.power.length - 1);
  const bandCentresHz = LTAS_BAND_CENTRES_HZ.filter((centre) => centre * 2 ** 0.25 <= nyquist);
  // The 1e-12 floor keeps bands finite when a band-limited source (8 kHz audio upsampled) is empty there.
  const levels = bandCentresHz.map((centre) => 10 * Math.log10(bandPower(spectrum, centre) + 1e-12));
  const mean = levels.reduce((a, b) => a + b, 0) / (levels.length || 1);
  const ltasDb = levels.map((level) => level - mean);
  let weighted = 0;
  let total = 0;
  for (let k = 0; k < spectrum.power.length && k * spectrum.binHz <= 8000; k++) {
    weighted += k * spectrum.binHz * spectrum.power[k]!;
    total += spectrum.power[k]!;
  }
  return {
    bandCentresHz,
    ltasDb,
    tiltDbPerOctave: slope(bandCentresHz.map(Math.log2), ltasDb),
    centroidHz: total > 0 ? weighted / total : NaN,
  };
}

export function spectrumStats(pcm: Pcm, select?: ArrayLike<number | boolean>): SpectrumStats {
  return summariseSpectrum(longTermSpectrum(pcm, select));
}
