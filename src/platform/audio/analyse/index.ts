import { durationOf, type Pcm } from '../pcm.js';
import { HOP_SECONDS } from './frames.js';
import { formantStats, type FormantStats } from './formants.js';
import { mfcc, summariseMfcc, type MfccStats } from './mfcc.js';
import { pitchTrack, summarisePitch, type PitchStats } from './pitch.js';
import { rateStats, type RateStats } from './rate.js';
import { resample } from './resample.js';
import { spectrumStats, type SpectrumStats } from './spectrum.js';

/**
 * One-call acoustic description of a speaker: what the acoustic voice print is built from, and
 * what voice cloning reads to match a target speaker. Every analysis is also exported on its own.
 */

export * from './fft.js';
export * from './formants.js';
export * from './frames.js';
export * from './mfcc.js';
export * from './pitch.js';
export * from './rate.js';
export * from './spectrum.js';

/**
 * Input is resampled to this rate first, so that every feature (MFCC filterbank, LTAS bands)
 * is computed on the same grid whatever the source rate; 16 kHz keeps the whole speech band.
 */
export const ANALYSIS_RATE = 16000;

export interface VoiceAnalysis {
  /** Length of the input, seconds. */
  durationSeconds: number;
  /** F0 over voiced frames: median, 10th/90th percentiles (Hz), range (semitones), voiced fraction. */
  pitch: PitchStats;
  /** Median F1, F2, F3 over voiced frames, Hz. */
  formants: FormantStats;
  /** Long-term average spectrum of voiced frames in half-octave bands (dB re band mean), tilt (dB/octave), centroid (Hz). */
  spectrum: SpectrumStats;
  /** MFCC c1..c12 (HTK, 26 filters 20–8000 Hz) mean and standard deviation over voiced frames. */
  mfcc: MfccStats;
  /** Syllable nuclei per second (with and without pauses). */
  rate: RateStats;
}

export async function analyseVoice(input: Pcm, signal?: AbortSignal): Promise<VoiceAnalysis> {
  signal?.throwIfAborted();
  const pcm = resample(input, ANALYSIS_RATE);
  const track = pitchTrack(pcm, { hopSeconds: HOP_SECONDS });
  const voiced = track.map((frame) => frame.f0 > 0);
  return {
    durationSeconds: durationOf(input),
    pitch: summarisePitch(track),
    formants: await formantStats(pcm, track, {}, signal),
    spectrum: spectrumStats(pcm, voiced),
    mfcc: summariseMfcc(mfcc(pcm, { hopSeconds: HOP_SECONDS }), voiced),
    rate: rateStats(pcm, track),
  };
}
