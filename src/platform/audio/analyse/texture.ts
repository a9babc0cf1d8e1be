import type { Pcm } from '../pcm.js';
import { frameLevelsDb, HOP_SECONDS, percentile } from './frames.js';
import { mfcc, summariseMfcc } from './mfcc.js';
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
  // Frames of c0..c8 then their deltas d0..d8.
  const frames = mfcc(pcm, { hopSeconds: HOP_SECONDS, coefficients: COEFFICIENTS + 1, deltas: true });
  const levels = frameLevelsDb(pcm);
  const count = Math.min(track.length, frames.length, levels.length);
  const voiced = Uint8Array.from({ length: count }, (_, i) => (track[i]!.f0 > 0 ? 1 : 0));
  const unvoiced = Uint8Array.from({ length: count }, (_, i) => (!voiced[i] && track[i]!.sounding ? 1 : 0));
  // summariseMfcc leaves out index 0 (c0): its c1..c8 are indices 0..7, d1..d8 indices 9..16.
  const ofUnvoiced = summariseMfcc(frames.slice(0, count), unvoiced);
  const ofVoiced = summariseMfcc(frames.slice(0, count), voiced);
  const steps: number[] = [];
  for (let i = 1; i < count; i++) {
    if (voiced[i] && voiced[i - 1]) steps.push(12 * Math.log2(track[i]!.f0 / track[i - 1]!.f0));
  }
  return {
    unvoicedMfccMean: ofUnvoiced.mean.slice(0, COEFFICIENTS),
    deltaMfccStd: ofVoiced.std.slice(COEFFICIENTS + 1, 2 * COEFFICIENTS + 1),
    aperiodicity: percentile(
      track.slice(0, count).flatMap((frame, i) => (voiced[i] ? [frame.aperiodicity] : [])),
      0.5,
    ),
    voicedFraction: ofVoiced.frames / Math.max(1, ofVoiced.frames + ofUnvoiced.frames),
    // Robust: a tracker's octave jump between two frames would outweigh every real step.
    f0StepSemitones: (percentile(steps, 0.75) - percentile(steps, 0.25)) / 1.349,
    levelSpreadDb: spread(Array.from(levels.subarray(0, count)).filter((_, i) => voiced[i] || unvoiced[i])),
    voicedFrames: ofVoiced.frames,
    unvoicedFrames: ofUnvoiced.frames,
  };
}

/** Population standard deviation. */
function spread(values: number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}
