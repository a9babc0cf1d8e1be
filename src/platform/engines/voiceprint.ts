/**
 * Acoustic voice print (`acoustic-v1`): the fallback for every similarity measure when no
 * speaker-embedding model is installed. No model, no native code: built from the analysis in
 * src/audio/analyse.
 *
 * Vector layout (Float32Array, 42 values):
 *   0–11   MFCC c1..c12 means over voiced frames          (log-energy DCT units)
 *   12–23  MFCC c1..c12 standard deviations                (same units)
 *   24     F0 median, semitones re 100 Hz
 *   25     F0 range p10..p90, semitones
 *   26–28  F1, F2, F3 trimmed geometric means, semitones re 100 Hz
 *   29–40  LTAS, 12 half-octave bands 125 Hz..5.7 kHz, dB re band mean
 *   41     spectral tilt, dB/octave
 *
 * Similarity, in 0..1:
 *   z_i = (a_i − b_i) / s_i, with s_i a fixed scale per feature: its standard deviation between
 *        speakers, measured once over the 20 English built-in voices and two recordings;
 *   D_g = mean of z_i² over the features of group g (MFCC means, MFCC spreads, F0, formants,
 *        LTAS, tilt);
 *   D   = Σ_g w_g·D_g / Σ_g w_g, with w = 4 for the MFCC means (the group that best tells
 *        speakers apart while varying least between sentences), 0.5 for the tilt (a single
 *        text-sensitive number, also implied by the LTAS), 1 for the others;
 *   similarity = exp(−D / 2).
 * Identical prints give 1; two unrelated speakers, whose features differ by about √2 scales each
 * (D ≈ 2), give about 0.37; the value falls towards 0 as voices grow further apart. It is a
 * ranking measure for "same voice or not", not a calibrated probability.
 */
import { analyseVoice, type VoiceAnalysis } from '../audio/analyse/index.js';
import type { Pcm } from '../audio/pcm.js';
import { type EngineCapabilities, type EngineDescriptor, type JobContext, type VoicePrint, type VoicePrinter } from './types.js';
import { EngineError } from '../errors.js';
import type { BuiltinEngineId } from './engine-ids.js';

export const ACOUSTIC_METHOD = 'acoustic-v1';

/** Below this many voiced frames (10 ms each) the statistics are too noisy to mean anything. */
const MIN_VOICED_FRAMES = 30;

export interface FeatureGroup {
  name: string;
  start: number;
  /** One scale per feature of the group. */
  scales: readonly number[];
  weight: number;
}

const GROUPS: readonly FeatureGroup[] = [
  { name: 'mfccMean', start: 0, scales: [2.98, 4.06, 1.71, 1.42, 1.4, 1.06, 1.32, 0.85, 0.72, 0.61, 0.67, 0.49], weight: 4 },
  { name: 'mfccStd', start: 12, scales: [0.83, 0.65, 0.68, 0.46, 0.45, 0.61, 0.35, 0.46, 0.32, 0.29, 0.29, 0.19], weight: 1 },
  { name: 'f0', start: 24, scales: [5.05, 2.79], weight: 1 },
  { name: 'formants', start: 26, scales: [2.87, 2.23, 1.48], weight: 1 },
  { name: 'ltas', start: 29, scales: [6.11, 5.88, 3.33, 3.84, 2.95, 3.34, 2.91, 3.33, 4.03, 3.85, 4.86, 6.54], weight: 1 },
  { name: 'tilt', start: 41, scales: [1.43], weight: 0.5 },
];

export const VECTOR_LENGTH = 42;

const semitones = (hz: number) => 12 * Math.log2(hz / 100);

/** The fixed-layout vector of an analysis (see the layout above). */
export function printVector(analysis: VoiceAnalysis): Float32Array {
  const { mfcc, pitch, formants, spectrum } = analysis;
  const vector = new Float32Array(VECTOR_LENGTH);
  vector.set(mfcc.mean.slice(0, 12), 0);
  vector.set(mfcc.std.slice(0, 12), 12);
  vector[24] = semitones(pitch.medianHz);
  vector[25] = pitch.rangeSemitones;
  vector.set(formants.meanHz.map(semitones), 26);
  vector.set(spectrum.ltasDb, 29);
  vector[41] = spectrum.tiltDbPerOctave;
  return vector;
}

export async function acousticPrint(pcm: Pcm, signal?: AbortSignal): Promise<VoicePrint> {
  return printOfAnalysis(await analyseVoice(pcm, signal));
}

/** The print of an analysis already made; throws `no_voiced_speech` when it holds too little voice. */
export function printOfAnalysis(analysis: VoiceAnalysis): VoicePrint {
  if (analysis.pitch.voicedFrames < MIN_VOICED_FRAMES) {
    throw new EngineError('no_voiced_speech', 'Too little voiced speech for a voice print', { voiced_frames: analysis.pitch.voicedFrames });
  }
  const vector = printVector(analysis);
  // A formant missing in every frame (NaN) would poison every comparison.
  if (vector.some(Number.isNaN)) throw new EngineError('no_voiced_speech', 'The voice could not be analysed', {});
  return { method: ACOUSTIC_METHOD, vector };
}

/** Weighted mean squared scaled difference D (see the top of the file). */
export function printDistance(a: Float32Array, b: Float32Array, groups: readonly FeatureGroup[] = GROUPS): number {
  let total = 0;
  let weights = 0;
  for (const group of groups) {
    let sum = 0;
    group.scales.forEach((scale, i) => {
      const z = (a[group.start + i]! - b[group.start + i]!) / scale;
      sum += z * z;
    });
    total += (group.weight * sum) / group.scales.length;
    weights += group.weight;
  }
  return total / weights;
}

/** exp(−D/2) between two prints of one method laid out in these groups (see the top of the file). */
export function groupedSimilarity(method: string, groups: readonly FeatureGroup[]): (a: VoicePrint, b: VoicePrint) => number {
  const length = Math.max(...groups.map((group) => group.start + group.scales.length));
  return (a, b) => {
    for (const print of [a, b]) {
      if (print.method !== method) {
        throw new EngineError('print_method_mismatch', `Cannot compare a ${print.method} print with ${method}`, { method: print.method });
      }
      if (print.vector.length !== length) throw new EngineError('print_invalid', `An ${method} print has ${length} values`, {});
    }
    return Math.exp(-printDistance(a.vector, b.vector, groups) / 2);
  };
}

export const acousticSimilarity = groupedSimilarity(ACOUSTIC_METHOD, GROUPS);

/** An engine around an acoustic print: no model, always available, made in the engine host. */
export function acousticPrinterEngine(
  id: BuiltinEngineId,
  print: (pcm: Pcm, signal: AbortSignal) => VoicePrint | Promise<VoicePrint>,
  similarity: VoicePrinter['similarity'],
  extra: Pick<VoicePrinter, 'analyse'> = {},
): EngineDescriptor<VoicePrinter> {
  const capabilities: EngineCapabilities = {
    engine: id,
    kind: 'voiceprint',
    neural: false,
    languages: [],
    wordTimings: false,
    phonemeTimings: false,
    referenceAudio: false,
    blendableVoices: false,
    speed: false,
  };
  return {
    id,
    kind: 'voiceprint',
    neural: false,
    probe: async () => ({ available: true }),
    load: async () => ({
      capabilities,
      extract: async (pcm: Pcm, context: JobContext) => {
        context.signal.throwIfAborted();
        const made = await print(pcm, context.signal);
        context.progress(1, 'voice print');
        return made;
      },
      similarity,
      ...extra,
    }),
  };
}

export const acousticVoiceprintEngine = acousticPrinterEngine('acoustic-voiceprint', acousticPrint, acousticSimilarity, {
  /** The full analysis (pitch, formants, spectrum, rate) that voice cloning fits to, made here to keep the server's event loop free. */
  analyse: async (pcm: Pcm, context: JobContext): Promise<VoiceAnalysis> => {
    context.signal.throwIfAborted();
    return analyseVoice(pcm, context.signal);
  },
});
