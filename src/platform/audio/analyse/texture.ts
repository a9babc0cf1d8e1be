import type { Pcm } from '../pcm.js';
import { frameLevelsDb, HOP_SECONDS, percentile } from './frames.js';
import { mfcc } from './mfcc.js';
import { pitchTrack } from './pitch.js';
import { resample } from './resample.js';

/**
 * What a voice conversion cannot reach: the analysis behind the second, independent similarity
 * measure. Voice cloning fits pitch, formants, the long-term spectrum and the MFCC means of
 * voiced frames; none of the features here is among them. They come from the base voice's own
 * articulation: the spectrum of unvoiced sounds (fricatives, bursts, breath), how fast the
 * spectral envelope moves, how clean the voicing is, and pitch and loudness at the finest scale.
 */

const RATE = 16000;
/** MFCC c1..c8: the broad envelope shape, where sentence-to-sentence variation stays small. */
const COEFFICIENTS = 8;

export interface VoiceTexture {
  /** MFCC c1..c8 means over sounding, unvoiced frames. */
  unvoicedMfccMean: number[];
  /** Standard deviations of the c1..c8 deltas (±2-frame regression) over voiced frames. */
  deltaMfccStd: number[];
  /** Median YIN aperiodicity of voiced frames: 0 perfectly periodic, higher for breathy or rough voices. */
  aperiodicity: number;
  /** Voiced frames over sounding frames. */
  voicedFraction: number;
  /** Spread of the F0 change between adjacent voiced frames (interquartile, as a standard deviation), semitones. */
  f0StepSemitones: number;
  /** Standard deviation of the frame level over sounding frames, dB. */
  levelSpreadDb: number;
  voicedFrames: number;
  unvoicedFrames: number;
}

export function analyseTexture(input: Pcm): VoiceTexture {
  const pcm = resample(input, RATE);
  const track = pitchTrack(pcm, { hopSeconds: HOP_SECONDS });
  const frames = mfcc(pcm, { hopSeconds: HOP_SECONDS, coefficients: COEFFICIENTS + 1, deltas: true });
  const levels = frameLevelsDb(pcm);
  const count = Math.min(track.length, frames.length, levels.length);
  const voiced: number[] = [];
  const unvoiced: number[] = [];
  for (let i = 0; i < count; i++) {
    if (track[i]!.f0 > 0) voiced.push(i);
    else if (track[i]!.sounding) unvoiced.push(i);
  }
  const coefficient = (i: number, c: number) => frames[i]![c]!;
  const deltaOf = (i: number, c: number) => frames[i]![COEFFICIENTS + 1 + c]!;
  const steps: number[] = [];
  for (let i = 1; i < count; i++) {
    if (track[i]!.f0 > 0 && track[i - 1]!.f0 > 0) steps.push(12 * Math.log2(track[i]!.f0 / track[i - 1]!.f0));
  }
  return {
    unvoicedMfccMean: range(COEFFICIENTS).map((c) => mean(unvoiced.map((i) => coefficient(i, c + 1)))),
    deltaMfccStd: range(COEFFICIENTS).map((c) => deviation(voiced.map((i) => deltaOf(i, c + 1)))),
    aperiodicity: percentile(
      voiced.map((i) => track[i]!.aperiodicity),
      0.5,
    ),
    voicedFraction: voiced.length / Math.max(1, voiced.length + unvoiced.length),
    // Robust: a tracker's octave jump between two frames would outweigh every real step.
    f0StepSemitones: (percentile(steps, 0.75) - percentile(steps, 0.25)) / 1.349,
    levelSpreadDb: deviation([...voiced, ...unvoiced].map((i) => levels[i]!)),
    voicedFrames: voiced.length,
    unvoicedFrames: unvoiced.length,
  };
}

const range = (length: number) => Array.from({ length }, (_, i) => i);

function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function deviation(values: number[]): number {
  const average = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
}
