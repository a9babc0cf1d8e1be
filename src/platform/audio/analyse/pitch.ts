import type { Pcm } from '../pcm.js';
import { fftPlan, nextPowerOfTwo } from './fft.js';
import { frameCount, frameLevelsDb, hopSamples, HOP_SECONDS, percentile, readFrame, soundMask } from './frames.js';

// Kept by hand: pitchfinder 2.3 (the JS YIN) is GPL-3 where Timbre is MIT, errs 1.1 Hz on a 90→250 Hz glide
// against 0.65 Hz here, and takes 170–320 ms per second of 16 kHz audio against 9–48 ms (one FFT per frame).
/**
 * Fundamental frequency per frame with YIN (de Cheveigné & Kawahara 2002): the cumulative-mean-
 * normalised difference function, its first dip under a threshold, parabolic refinement. The
 * difference function is computed through one FFT cross-correlation per frame, which keeps it
 * linear-logarithmic in the lag range instead of quadratic.
 */

export interface PitchOptions {
  /** Lowest and highest F0 searched, Hz. */
  minHz?: number;
  maxHz?: number;
  hopSeconds?: number;
  /** A frame is voiced when its normalised-difference dip is below this (0 = perfectly periodic). */
  voicingThreshold?: number;
}

export interface PitchFrame {
  /** Seconds from the start (frame centre). */
  time: number;
  /** Hz; 0 when the frame is unvoiced or silent. */
  f0: number;
  /** Depth of the chosen YIN dip: 0 periodic .. ~1 noise (1 for silence). */
  aperiodicity: number;
  /** False for frames gated out as silence. */
  sounding: boolean;
}

export interface PitchStats {
  /** Median F0 over voiced frames, Hz (NaN with no voiced frame; likewise below). */
  medianHz: number;
  /** 10th and 90th percentiles of F0, Hz. */
  p10Hz: number;
  p90Hz: number;
  /** 12·log2(p90/p10): the speaker's typical F0 range in semitones. */
  rangeSemitones: number;
  /** Voiced frames / non-silent frames, 0..1. */
  voicedFraction: number;
  voicedFrames: number;
}

const DIP_THRESHOLD = 0.15;
const DIP_MARGIN = 0.1;

export function pitchTrack(pcm: Pcm, options: PitchOptions = {}): PitchFrame[] {
  const minHz = options.minHz ?? 50;
  const maxHz = options.maxHz ?? 500;
  const voicing = options.voicingThreshold ?? 0.25;
  const hop = hopSamples(pcm.sampleRate, options.hopSeconds ?? HOP_SECONDS);
  const minLag = Math.max(2, Math.floor(pcm.sampleRate / maxHz));
  const maxLag = Math.ceil(pcm.sampleRate / minHz);
  // Integration window of one longest period; the frame also holds maxLag samples of lookahead.
  const window = maxLag;
  const frame = new Float64Array(window + maxLag + 1);
  // A 25 dB gate (stricter than the 35 dB default) keeps mains hum and room tone in pauses,
  // which are periodic too, from counting as voice.
  const sound = soundMask(frameLevelsDb(pcm, frame.length / pcm.sampleRate, options.hopSeconds), 25);
  const work = workspace(frame.length, maxLag);
  const track: PitchFrame[] = [];
  for (let i = 0; i < frameCount(pcm.samples.length, hop); i++) {
    const time = (i * hop) / pcm.sampleRate;
    if (!sound[i]) {
      track.push({ time, f0: 0, aperiodicity: 1, sounding: false });
      continue;
    }
    readFrame(pcm.samples, i * hop, frame);
    const difference = normalisedDifference(frame, window, maxLag, work);
    const { lag, depth } = chooseDip(difference, minLag, maxLag);
    const voiced = depth < voicing;
    track.push({ time, f0: voiced ? pcm.sampleRate / lag : 0, aperiodicity: Math.min(1, depth), sounding: true });
  }
  return track;
}

/** Scratch arrays for one track, so the per-frame work allocates nothing. */
interface Workspace {
  /** Interleaved complex arrays of the FFT size: the two frames in, their spectra, the correlation out. */
  frames: Float64Array;
  spectra: Float64Array;
  correlation: Float64Array;
  squares: Float64Array;
  result: Float64Array;
}

function workspace(frameLength: number, maxLag: number): Workspace {
  const size = nextPowerOfTwo(frameLength);
  const complex = () => new Float64Array(2 * size);
  return { frames: complex(), spectra: complex(), correlation: complex(), squares: new Float64Array(frameLength + 1), result: new Float64Array(maxLag + 1) };
}

/**
 * YIN's d'(τ) for τ = 0..maxLag: d(τ) = Σ_{j<W} (x_j − x_{j+τ})² = e(0) + e(τ) − 2·r(τ), with
 * the cross term r from an FFT correlation and the energies e from running sums. Both real
 * inputs (the first W samples, and the whole frame) go through one complex FFT as re and im.
 */
function normalisedDifference(frame: Float64Array, window: number, maxLag: number, work: Workspace): Float64Array {
  const { frames, spectra, correlation, squares, result } = work;
  const size = frames.length / 2;
  // The first W samples go in as the real part, the whole frame as the imaginary part.
  frames.fill(0);
  for (let i = 0; i < frame.length; i++) {
    if (i < window) frames[2 * i] = frame[i]!;
    frames[2 * i + 1] = frame[i]!;
  }
  const plan = fftPlan(size);
  plan.transform(spectra, frames);
  // Separate A (of re) and B (of im) by conjugate symmetry, form conj(A)·B in place; the inverse
  // transform then gives r(τ) = Σ_j a_j b_{j+τ}. Bins k and N−k are handled together.
  for (let k = 0; k <= size / 2; k++) {
    const m = (size - k) % size;
    const [zr, zi, wr, wi] = [spectra[2 * k]!, spectra[2 * k + 1]!, spectra[2 * m]!, spectra[2 * m + 1]!];
    const [ar, ai] = [(zr + wr) / 2, (zi - wi) / 2];
    const [br, bi] = [(zi + wi) / 2, (wr - zr) / 2];
    spectra[2 * k] = ar * br + ai * bi;
    spectra[2 * k + 1] = ar * bi - ai * br;
    // Bin N−k holds conj(A_k)·B_k conjugated, because both inputs were real.
    spectra[2 * m] = spectra[2 * k]!;
    spectra[2 * m + 1] = k === m ? spectra[2 * k + 1]! : -spectra[2 * k + 1]!;
  }
  // fft.js scales the inverse by 1/N.
  plan.inverseTransform(correlation, spectra);
  for (let i = 0; i < frame.length; i++) squares[i + 1] = squares[i]! + frame[i]! * frame[i]!;
  const energyAt = (lag: number) => squares[lag + window]! - squares[lag]!;
  result[0] = 1;
  let cumulative = 0;
  for (let lag = 1; lag <= maxLag; lag++) {
    const d = Math.max(0, energyAt(0) + energyAt(lag) - 2 * correlation[2 * lag]!);
    cumulative += d;
    result[lag] = cumulative > 0 ? (d * lag) / cumulative : 1;
  }
  return result;
}

/**
 * The first local minimum within DIP_MARGIN of the global minimum, refined by a parabola. Plain
 * YIN takes the first dip under a fixed threshold and falls back to the global minimum, which in
 * noisy frames is often a multiple of the period (an octave too low); comparing with the global
 * minimum picks the shortest lag that is nearly as periodic.
 */
function chooseDip(difference: Float64Array, minLag: number, maxLag: number): { lag: number; depth: number } {
  let lowest = Infinity;
  for (let lag = minLag; lag <= maxLag; lag++) lowest = Math.min(lowest, difference[lag]!);
  const accept = Math.max(DIP_THRESHOLD, lowest + DIP_MARGIN);
  let best = minLag;
  while (best < maxLag && difference[best]! >= accept) best++;
  while (best < maxLag && difference[best + 1]! < difference[best]!) best++;
  const left = difference[best - 1] ?? difference[best]!;
  const right = difference[best + 1] ?? difference[best]!;
  const centre = difference[best]!;
  const curvature = left - 2 * centre + right;
  const shift = curvature > 0 ? (0.5 * (left - right)) / curvature : 0;
  return { lag: best + Math.max(-0.5, Math.min(0.5, shift)), depth: centre };
}

/** Summary statistics of a track (voiced fraction among the frames that are not silent). */
export function summarisePitch(track: PitchFrame[]): PitchStats {
  const voiced = track.filter((frame) => frame.f0 > 0).map((frame) => frame.f0);
  const sounding = track.filter((frame) => frame.sounding).length;
  const p10Hz = percentile(voiced, 0.1);
  const p90Hz = percentile(voiced, 0.9);
  return {
    medianHz: percentile(voiced, 0.5),
    p10Hz,
    p90Hz,
    rangeSemitones: 12 * Math.log2(p90Hz / p10Hz),
    voicedFraction: sounding > 0 ? voiced.length / sounding : 0,
    voicedFrames: voiced.length,
  };
}

export function pitchStats(pcm: Pcm, options: PitchOptions = {}): PitchStats {
  return summarisePitch(pitchTrack(pcm, options));
}
