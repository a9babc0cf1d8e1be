import type { Pcm } from '../../platform/audio/pcm.js';
import { ANALYSIS_RATE, HOP_SECONDS, pitchTrack, spectrumStats, summarisePitch } from '../../platform/audio/analyse/index.js';
import { resample } from '../../platform/audio/analyse/resample.js';

/**
 * What the library measures of a voice's sample (its preview): how high it speaks and how bright
 * it sounds. A 3 s preview takes a few milliseconds (one YIN track and one long-term spectrum at
 * 16 kHz), so it runs where the sample is made or read, in the service process.
 */
export interface SampleMeasures {
  /** Median F0 over voiced frames, Hz; null when no frame was voiced. */
  medianF0Hz: number | null;
  /**
   * Spectral centroid (power-weighted mean frequency up to 8 kHz) of the long-term spectrum of the
   * voiced frames, Hz: the standard acoustic correlate of perceived brightness. Null with no voiced frame.
   */
  centroidHz: number | null;
}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

export function measureSample(input: Pcm): SampleMeasures {
  const pcm = resample(input, ANALYSIS_RATE);
  const track = pitchTrack(pcm, { hopSeconds: HOP_SECONDS });
  const voiced = track.map((frame) => frame.f0 > 0);
  if (!voiced.includes(true)) return { medianF0Hz: null, centroidHz: null };
  return { medianF0Hz: finiteOrNull(summarisePitch(track).medianHz), centroidHz: finiteOrNull(spectrumStats(pcm, voiced).centroidHz) };
}
