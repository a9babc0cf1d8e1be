import type { Pcm } from '../pcm.js';
import { frameLevelsDb, HOP_SECONDS, percentile, soundMask } from './frames.js';
import { pitchTrack, type PitchFrame } from './pitch.js';

/**
 * Speaking rate from syllable nuclei, after de Jong & Wempe (2009): peaks of the smoothed
 * intensity envelope that are voiced, above the median level of the sounding frames, and stand
 * at least `MIN_DIP_DB` above the valley separating them from the previous nucleus.
 */

export interface RateStats {
  /** Syllable nuclei found. */
  syllables: number;
  /** First to last sounding frame, seconds (pauses inside included). */
  speakingSeconds: number;
  /** Sounding frames only, seconds (pauses excluded). */
  articulationSeconds: number;
  /** syllables / speakingSeconds. */
  syllablesPerSecond: number;
  /** syllables / articulationSeconds. */
  articulationRate: number;
}

const MIN_DIP_DB = 2;

/** Moving average over ±radius frames: merges the pitch-period ripple into one hump per syllable. */
function smooth(values: Float64Array, radius: number): Float64Array {
  return values.map((_, i) => {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(values.length - 1, i + radius); j++, count++) sum += values[j]!;
    return sum / count;
  });
}

/** Frame indices of syllable nuclei. `track` must be on the same frame grid (10 ms hop). */
export function syllableNuclei(pcm: Pcm, track: PitchFrame[]): number[] {
  const envelope = smooth(frameLevelsDb(pcm, 0.04, HOP_SECONDS), 2);
  const sound = soundMask(envelope);
  const threshold = percentile(
    Array.from(envelope).filter((_, i) => sound[i]),
    0.5,
  );
  const nuclei: number[] = [];
  let valley = Infinity;
  for (let i = 1; i + 1 < envelope.length; i++) {
    const level = envelope[i]!;
    valley = Math.min(valley, level);
    const isPeak = level >= envelope[i - 1]! && level > envelope[i + 1]!;
    if (!isPeak || level < threshold || !(track[i]?.f0 ?? 0)) continue;
    const last = nuclei[nuclei.length - 1];
    if (last === undefined || level - valley >= MIN_DIP_DB) {
      nuclei.push(i);
      valley = level;
    } else if (level > envelope[last]!) {
      // Not separated from the previous nucleus by a dip: the higher peak is the nucleus.
      nuclei[nuclei.length - 1] = i;
      valley = level;
    }
  }
  return nuclei;
}

export function rateStats(pcm: Pcm, track: PitchFrame[] = pitchTrack(pcm)): RateStats {
  const syllables = syllableNuclei(pcm, track).length;
  const sounding = track.map((frame) => frame.sounding);
  const first = sounding.indexOf(true);
  const last = sounding.lastIndexOf(true);
  const speakingSeconds = first < 0 ? 0 : (last - first + 1) * HOP_SECONDS;
  const articulationSeconds = sounding.filter(Boolean).length * HOP_SECONDS;
  return {
    syllables,
    speakingSeconds,
    articulationSeconds,
    syllablesPerSecond: speakingSeconds > 0 ? syllables / speakingSeconds : 0,
    articulationRate: articulationSeconds > 0 ? syllables / articulationSeconds : 0,
  };
}
