import type { Gender } from '../../platform/engines/types.js';

/**
 * Tags from what was measured of a voice's sample (sample-measures.ts): its pitch against the
 * published speaking F0 range of adults of its stated gender, and its brightness. docs/api.md
 * ("Voice tags, built-in categories and order") gives the sources.
 */

/**
 * Typical speaking F0 of adults, Hz: men 85–155, women 165–255 (Baken, Clinical Measurement of
 * Speech and Voice, 1987; Titze, Principles of Voice Production, 1994, gives means of about 120 and
 * 210). A median below the range is `deep`, above it `high-pitched`.
 */
export const ADULT_F0_RANGE_HZ: Readonly<Record<Gender, readonly [low: number, high: number]>> = {
  male: [85, 155],
  female: [165, 255],
};

/** With no stated gender, only what lies outside both ranges: below the men's, above the women's. */
export const ANY_ADULT_F0_RANGE_HZ: readonly [low: number, high: number] = [ADULT_F0_RANGE_HZ.male[0], ADULT_F0_RANGE_HZ.female[1]];

/**
 * Spectral centroid thresholds, Hz: the lower and upper quartiles (376 and 816 Hz, rounded) of the
 * centroids measured of the samples of the 58 built-in presets (pico, eSpeak NG with MBROLA, RHVoice,
 * Festival, Flite, Open JTalk; range 202–979 Hz, median 676), so that about a quarter of them is
 * `warm` and a quarter `bright`. The centroid is power-weighted, hence lower than magnitude-weighted figures.
 */
export const WARM_CENTROID_HZ = 375;
export const BRIGHT_CENTROID_HZ = 815;

export type PitchTag = 'deep' | 'high-pitched';
export type BrightnessTag = 'warm' | 'bright';

export function pitchTag(medianF0Hz: number | null, gender: Gender | null): PitchTag | undefined {
  if (medianF0Hz === null) return undefined;
  const [low, high] = gender === null ? ANY_ADULT_F0_RANGE_HZ : ADULT_F0_RANGE_HZ[gender];
  if (medianF0Hz < low) return 'deep';
  return medianF0Hz > high ? 'high-pitched' : undefined;
}

export function brightnessTag(centroidHz: number | null): BrightnessTag | undefined {
  if (centroidHz === null) return undefined;
  if (centroidHz < WARM_CENTROID_HZ) return 'warm';
  return centroidHz > BRIGHT_CENTROID_HZ ? 'bright' : undefined;
}
