import type { Pcm } from '../pcm.js';
import { hammingWindow, nextPowerOfTwo, powerSpectrum } from './fft.js';
import { frameCount, hopSamples, HOP_SECONDS, readFrame } from './frames.js';

// Kept by hand: meyda 5.6's MFCC (no pre-emphasis, its own log and DCT scaling) correlates −0.54 with
// these HTK coefficients on a vowel frame, and every stored voiceprint and clone score is built on HTK's.
/**
 * Mel-frequency cepstral coefficients (HTK conventions: mel = 2595·log10(1 + f/700), triangular
 * filters, natural-log energies, orthonormal DCT-II). The filterbank is laid out in Hz, so
 * coefficients from different sample rates are comparable as long as `highHz` is below both
 * Nyquist frequencies.
 */

export interface MfccOptions {
  /** Coefficients kept, c0 (log energy) included. */
  coefficients?: number;
  filters?: number;
  lowHz?: number;
  /** Defaults to min(8000, Nyquist). */
  highHz?: number;
  windowSeconds?: number;
  hopSeconds?: number;
  /** First-order pre-emphasis coefficient; flattens the glottal tilt so upper filters count. */
  preEmphasis?: number;
  /** Appends delta coefficients (regression over ±2 frames) to every frame. */
  deltas?: boolean;
}

/** One triangular filter: weights for FFT bins start, start+1, … */
export interface MelFilter {
  start: number;
  weights: Float64Array;
}

export const hzToMel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
export const melToHz = (mel: number): number => 700 * (10 ** (mel / 2595) - 1);

export function melFilterbank(fftSize: number, sampleRate: number, filters: number, lowHz: number, highHz: number): MelFilter[] {
  const low = hzToMel(lowHz);
  const high = hzToMel(highHz);
  const edges = Array.from({ length: filters + 2 }, (_, i) => melToHz(low + ((high - low) * i) / (filters + 1)));
  const binHz = sampleRate / fftSize;
  const bank: MelFilter[] = [];
  for (let m = 1; m <= filters; m++) {
    const [left, centre, right] = [edges[m - 1]!, edges[m]!, edges[m + 1]!];
    const start = Math.ceil(left / binHz);
    const end = Math.min(fftSize / 2, Math.floor(right / binHz));
    const weights = new Float64Array(Math.max(0, end - start + 1));
    for (let bin = start; bin <= end; bin++) {
      const hz = bin * binHz;
      weights[bin - start] = hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre);
    }
    bank.push({ start, weights });
  }
  return bank;
}

/** Orthonormal DCT-II matrix, `coefficients` rows × `inputs` columns. */
function dctMatrix(coefficients: number, inputs: number): Float64Array[] {
  return Array.from({ length: coefficients }, (_, k) => {
    const scale = Math.sqrt((k === 0 ? 1 : 2) / inputs);
    return Float64Array.from({ length: inputs }, (_, n) => scale * Math.cos((Math.PI * k * (n + 0.5)) / inputs));
  });
}

/** MFCC frames on the shared frame grid (frame i centred on sample i·hop). */
export function mfcc(pcm: Pcm, options: MfccOptions = {}): Float64Array[] {
  const coefficients = options.coefficients ?? 13;
  const filters = options.filters ?? 26;
  const highHz = Math.min(options.highHz ?? 8000, pcm.sampleRate / 2);
  const length = Math.round(pcm.sampleRate * (options.windowSeconds ?? 0.025));
  const fftSize = nextPowerOfTwo(length);
  const bank = melFilterbank(fftSize, pcm.sampleRate, filters, options.lowHz ?? 20, highHz);
  const dct = dctMatrix(coefficients, filters);
  const window = hammingWindow(length);
  const hop = hopSamples(pcm.sampleRate, options.hopSeconds ?? HOP_SECONDS);
  const preEmphasis = options.preEmphasis ?? 0.97;
  const raw = new Float64Array(length + 1);
  const frame = new Float64Array(length);
  const energies = new Float64Array(filters);
  const frames: Float64Array[] = [];
  for (let i = 0; i < frameCount(pcm.samples.length, hop); i++) {
    readFrame(pcm.samples, i * hop, raw);
    for (let n = 0; n < length; n++) frame[n] = (raw[n + 1]! - preEmphasis * raw[n]!) * window[n]!;
    const power = powerSpectrum(frame, fftSize);
    bank.forEach((filter, m) => {
      let sum = 0;
      for (let j = 0; j < filter.weights.length; j++) sum += filter.weights[j]! * power[filter.start + j]!;
      energies[m] = Math.log(sum + 1e-10);
    });
    frames.push(Float64Array.from(dct, (row) => row.reduce((sum, weight, n) => sum + weight * energies[n]!, 0)));
  }
  return options.deltas ? withDeltas(frames) : frames;
}

/** Appends HTK regression deltas, Σ_k k·(c[t+k] − c[t−k]) / (2·Σ k²) over k = 1..2. */
export function withDeltas(frames: Float64Array[]): Float64Array[] {
  const at = (t: number) => frames[Math.max(0, Math.min(frames.length - 1, t))]!;
  return frames.map((current, t) => {
    const out = new Float64Array(current.length * 2);
    out.set(current);
    for (let c = 0; c < current.length; c++) {
      out[current.length + c] = (at(t + 1)[c]! - at(t - 1)[c]! + 2 * (at(t + 2)[c]! - at(t - 2)[c]!)) / 10;
    }
    return out;
  });
}

export interface MfccStats {
  /** Per coefficient c1..c(n−1) (c0, the loudness, is left out): mean and standard deviation. */
  mean: number[];
  std: number[];
  frames: number;
}

/** Mean and standard deviation of c1.. over the frames where `select[i]` is set. */
export function summariseMfcc(frames: Float64Array[], select: ArrayLike<number | boolean>): MfccStats {
  const chosen = frames.filter((_, i) => Boolean(select[i]));
  const width = (frames[0]?.length ?? 1) - 1;
  const mean = new Array<number>(width).fill(0);
  const square = new Array<number>(width).fill(0);
  for (const frame of chosen) {
    for (let c = 0; c < width; c++) {
      mean[c] = mean[c]! + frame[c + 1]! / chosen.length;
      square[c] = square[c]! + frame[c + 1]! ** 2 / chosen.length;
    }
  }
  const std = mean.map((m, c) => Math.sqrt(Math.max(0, square[c]! - m * m)));
  return { mean, std, frames: chosen.length };
}
