import type { Pcm } from '../pcm.js';
import { hammingWindow } from './fft.js';
import { percentile, readFrame } from './frames.js';
import { pitchTrack, type PitchFrame } from './pitch.js';
import { resample } from './resample.js';

/**
 * Formants by linear prediction, as Praat's Burg analysis does it in spirit: resample to twice
 * the highest formant of interest (so the LPC order models only the formant region), pre-emphasise,
 * autocorrelation LPC via Levinson-Durbin, polynomial roots → frequencies and bandwidths; F1..F3
 * are the lowest three sharp resonances.
 */

export interface FormantOptions {
  /** Top of the analysed band, Hz: 5500 suits adult voices of either sex (Praat's default). */
  ceilingHz?: number;
  /** LPC order; default 2 + 2·(number of formants under the ceiling) = 12. */
  order?: number;
  windowSeconds?: number;
}

export interface FormantStats {
  /** Medians over voiced frames, Hz (NaN when no frame yields that formant). */
  f1Hz: number;
  f2Hz: number;
  f3Hz: number;
  /**
   * Geometric means of F1, F2, F3 over the middle 80 % of each one's values, Hz. Steadier than
   * the medians between different texts: a median of a bimodal F2 (front vs back vowels) jumps
   * between modes with the vowel mix, a mean moves smoothly.
   */
  meanHz: [number, number, number];
  frames: number;
}

/** Predictor polynomial [1, a1, …, ap] minimising the forward error (Levinson-Durbin). */
export function lpc(frame: ArrayLike<number>, order: number): Float64Array {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    for (let i = lag; i < frame.length; i++) r[lag] = r[lag]! + frame[i]! * frame[i - lag]!;
  }
  r[0] = r[0]! * (1 + 1e-9) + 1e-12; // a whisper of white noise keeps silent frames solvable
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0];
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = -acc / error;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = previous[j]! + k * previous[i - j]!;
    a[i] = k;
    error *= 1 - k * k;
  }
  return a;
}

/** Complex roots of z^p + c1·z^(p−1) + … + cp (Durand-Kerner iteration), as [re, im] pairs. */
export function polynomialRoots(coefficients: Float64Array): Array<[number, number]> {
  const degree = coefficients.length - 1;
  const roots: Array<[number, number]> = Array.from({ length: degree }, (_, k) => [
    0.9 * Math.cos((2 * Math.PI * k) / degree + 0.4),
    0.9 * Math.sin((2 * Math.PI * k) / degree + 0.4),
  ]);
  for (let iteration = 0; iteration < 500; iteration++) {
    let moved = 0;
    for (let i = 0; i < degree; i++) {
      const [zr, zi] = roots[i]!;
      // Horner evaluation of the polynomial at z.
      let pr = 1;
      let pi = 0;
      for (let k = 1; k <= degree; k++) [pr, pi] = [pr * zr - pi * zi + coefficients[k]!, pr * zi + pi * zr];
      let qr = 1;
      let qi = 0;
      for (let j = 0; j < degree; j++) {
        if (j === i) continue;
        const [dr, di] = [zr - roots[j]![0], zi - roots[j]![1]];
        [qr, qi] = [qr * dr - qi * di, qr * di + qi * dr];
      }
      const norm = qr * qr + qi * qi || 1e-30;
      const stepR = (pr * qr + pi * qi) / norm;
      const stepI = (pi * qr - pr * qi) / norm;
      roots[i] = [zr - stepR, zi - stepI];
      moved = Math.max(moved, Math.abs(stepR) + Math.abs(stepI));
    }
    if (moved < 1e-10) break;
  }
  return roots;
}

/** Resonances of an LPC polynomial: frequency and bandwidth in Hz, ascending. */
export function resonances(a: Float64Array, sampleRate: number): Array<{ hz: number; bandwidthHz: number }> {
  return polynomialRoots(a)
    .filter(([, im]) => im > 0)
    .map(([re, im]) => ({
      hz: (Math.atan2(im, re) * sampleRate) / (2 * Math.PI),
      bandwidthHz: (-Math.log(Math.hypot(re, im)) * sampleRate) / Math.PI,
    }))
    .sort((x, y) => x.hz - y.hz);
}

/**
 * F1..F3 for each frame whose centre time is listed: the lowest three resonances above 150 Hz
 * narrower than 500 Hz (wider poles shape the spectral slope, not a formant).
 */
export async function formantTrack(pcm: Pcm, times: number[], options: FormantOptions = {}, abort?: AbortSignal): Promise<Array<[number, number, number]>> {
  const ceiling = options.ceilingHz ?? 5500;
  const order = options.order ?? 12;
  abort?.throwIfAborted();
  const signal = resample(pcm, 2 * ceiling);
  const rate = signal.sampleRate;
  const length = Math.round(rate * (options.windowSeconds ?? 0.025));
  const window = hammingWindow(length);
  // Pre-emphasis from 50 Hz, as Praat does: the LPC fit then spends its poles on resonances.
  const alpha = Math.exp((-2 * Math.PI * 50) / rate);
  const raw = new Float64Array(length + 1);
  const frame = new Float64Array(length);
  const result: Array<[number, number, number]> = [];
  for (const time of times) {
    readFrame(signal.samples, Math.round(time * rate), raw);
    for (let n = 0; n < length; n++) frame[n] = (raw[n + 1]! - alpha * raw[n]!) * window[n]!;
    const peaks = resonances(lpc(frame, order), rate).filter((r) => r.hz > 150 && r.hz < ceiling - 50 && r.bandwidthHz < 500);
    result.push([peaks[0]?.hz ?? NaN, peaks[1]?.hz ?? NaN, peaks[2]?.hz ?? NaN]);
  }
  return result;
}

/** Median F1..F3 over the voiced frames of `track` (computed from `pcm` when not given). */
export async function formantStats(pcm: Pcm, track: PitchFrame[] = pitchTrack(pcm), options: FormantOptions = {}, abort?: AbortSignal): Promise<FormantStats> {
  // Every other voiced frame (20 ms apart) is plenty for a median and halves the root finding.
  const times = track.filter((frame, i) => frame.f0 > 0 && i % 2 === 0).map((frame) => frame.time);
  const formants = await formantTrack(pcm, times, options, abort);
  const values = (k: 0 | 1 | 2) => formants.map((f) => f[k]).filter((hz) => !Number.isNaN(hz));
  const median = (k: 0 | 1 | 2) => percentile(values(k), 0.5);
  const mean = (k: 0 | 1 | 2) => trimmedGeometricMean(values(k), 0.1);
  return { f1Hz: median(0), f2Hz: median(1), f3Hz: median(2), meanHz: [mean(0), mean(1), mean(2)], frames: formants.length };
}

/** exp(mean(log x)) over the values between the `trim` and 1 − `trim` quantiles; NaN when empty. */
export function trimmedGeometricMean(values: number[], trim: number): number {
  const low = percentile(values, trim);
  const high = percentile(values, 1 - trim);
  const kept = values.filter((value) => value >= low && value <= high);
  return Math.exp(kept.reduce((sum, value) => sum + Math.log(value), 0) / kept.length);
}
