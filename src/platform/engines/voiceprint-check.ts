/**
 * Acoustic check print (`acoustic-check-v1`): the second similarity measure, the one a clone's
 * similarity is reported with when no speaker-embedding model is installed. Cloning fits to the
 * acoustic voice print (voiceprint.ts); this print shares none of its features, so a fit cannot
 * have tuned itself to it (src/audio/analyse/texture.ts says what it measures).
 *
 * Vector layout (Float32Array, 20 values):
 *   0–7    MFCC c1..c8 means over unvoiced sounding frames
 *   8–15   standard deviations of the c1..c8 deltas over voiced frames
 *   16     median aperiodicity of voiced frames
 *   17     voiced fraction of sounding frames
 *   18     spread of frame-to-frame F0 steps, semitones
 *   19     spread of frame levels, dB
 *
 * Similarity is exp(−D/2) as for the acoustic print, with D the weighted mean of squared
 * differences scaled by each feature's spread between speakers (measured once over the 20 English
 * built-in voices speaking the clone probe sentences and the two reference recordings); the
 * unvoiced spectrum weighs double. Measured then: the two halves of one recording 0.59 (JFK) and
 * 0.95 (LJ Speech), the two recordings 0.26, a recording and the built-in voices 0.22–0.45.
 */
import { analyseTexture } from '../audio/analyse/texture.js';
import type { Pcm } from '../audio/pcm.js';
import { EngineError } from '../errors.js';
import type { VoicePrint } from './types.js';
import { acousticPrinterEngine, groupedSimilarity, type FeatureGroup } from './voiceprint.js';

export const CHECK_METHOD = 'acoustic-check-v1';

/** Below this many voiced or unvoiced frames (10 ms each) the statistics are too noisy. */
const MIN_VOICED_FRAMES = 30;
const MIN_UNVOICED_FRAMES = 10;

const GROUPS: readonly FeatureGroup[] = [
  { name: 'unvoicedMfcc', start: 0, scales: [5.1, 3.23, 1.72, 1.14, 0.77, 0.6, 0.6, 0.46], weight: 2 },
  { name: 'deltaMfcc', start: 8, scales: [0.324, 0.205, 0.173, 0.133, 0.138, 0.15, 0.111, 0.137], weight: 1 },
  { name: 'voicing', start: 16, scales: [0.034, 0.135], weight: 1 },
  { name: 'dynamics', start: 18, scales: [0.047, 0.714], weight: 1 },
];

export function checkPrint(pcm: Pcm): VoicePrint {
  const texture = analyseTexture(pcm);
  if (texture.voicedFrames < MIN_VOICED_FRAMES || texture.unvoicedFrames < MIN_UNVOICED_FRAMES) {
    throw new EngineError('no_voiced_speech', 'Too little speech for a check print', {
      voiced_frames: texture.voicedFrames,
      unvoiced_frames: texture.unvoicedFrames,
    });
  }
  const vector = Float32Array.from([
    ...texture.unvoicedMfccMean,
    ...texture.deltaMfccStd,
    texture.aperiodicity,
    texture.voicedFraction,
    texture.f0StepSemitones,
    texture.levelSpreadDb,
  ]);
  if (vector.some(Number.isNaN)) throw new EngineError('no_voiced_speech', 'The voice could not be analysed', {});
  return { method: CHECK_METHOD, vector };
}

export const checkSimilarity = groupedSimilarity(CHECK_METHOD, GROUPS);

export const acousticCheckEngine = acousticPrinterEngine('acoustic-check', checkPrint, checkSimilarity);
