import { resample } from './effects.js';
import { filterPcm } from './decode.js';
import { measureLoudness, normalizeLoudness } from './loudness.js';
import { TRUE_PEAK_CEILING_DBTP, truePeakLimiter } from './peak-ceiling.js';
import type { Pcm } from './pcm.js';
import { requireRange } from './validate.js';

/**
 * Defaults for joining generated chunks (usually one sentence each) into one file:
 * - `pauseMs` 350: read speech pauses roughly 300-500 ms between sentences; TTS chunks already
 *   carry a little leading and trailing silence, so 350 ms sounds natural without dragging.
 * - `paragraphPauseMs` 800: audiobook narration pauses about 0.7-1 s at paragraph breaks; clearly
 *   longer than a sentence pause, so the structure is audible.
 * - `crossfadeMs` 0: chunks are separate sentences that end in silence, so nothing needs blending,
 *   and the merged length stays exactly the chunks plus the pauses.
 * - `targetLufs` -16: the spoken-word streaming target (AES TD1008, Apple Podcasts) and the
 *   default of normalizeLoudness, with a -1.5 dBTP peak limit (under the ceiling every merge keeps).
 */
export const MERGE_DEFAULTS = Object.freeze({ pauseMs: 350, paragraphPauseMs: 800, crossfadeMs: 0, targetLufs: -16 });

export interface MergeChunk {
  pcm: Pcm;
  /** The chunk ends a paragraph: the paragraph pause follows it instead of the sentence pause. */
  paragraphEnd?: boolean;
}

export interface MergeOptions {
  /** Silence between sentences. Default MERGE_DEFAULTS.pauseMs. */
  pauseMs?: number;
  /** Silence after a chunk marked `paragraphEnd`. Default MERGE_DEFAULTS.paragraphPauseMs. */
  paragraphPauseMs?: number;
  /**
   * Overlap of adjacent chunks with equal-power fades. It applies only to joins without a pause
   * (pause 0): with a pause there is nothing to overlap. Limited to half the shorter chunk.
   */
  crossfadeMs?: number;
  /** Normalise integrated loudness to `targetLufs` (the length is kept). Default true. */
  normalize?: boolean;
  targetLufs?: number;
  /** Output rate. Default: the first chunk's rate. */
  sampleRate?: number;
  signal?: AbortSignal;
}

/** Where chunk `index` lies in the merged audio, in seconds. Crossfaded chunks overlap. */
export interface Placement {
  index: number;
  start: number;
  end: number;
}

export interface Merged {
  pcm: Pcm;
  placements: Placement[];
}

/** How two neighbouring chunks meet, in samples: silence between them, or overlap. */
interface Join {
  gap: number;
  overlap: number;
}

/**
 * Chunk edges next to a pause fade in or out over 5 ms: enough to remove the click of audio cut
 * mid-waveform, shorter than a consonant attack so no fade is heard. The length is unchanged.
 */
const EDGE_FADE_SECONDS = 0.005;

/** Upper bound for pauses and crossfades, so a wrong unit (seconds for ms) fails loudly. */
const MAX_MS = 60_000;

/**
 * Joins chunks in order at one sample rate: each chunk after the previous one plus a sentence or
 * paragraph pause (none after the last), or overlapped by the crossfade where the pause is 0.
 */
export async function mergeChunks(chunks: readonly MergeChunk[], options: MergeOptions = {}): Promise<Merged> {
  if (chunks.length === 0) throw new RangeError('mergeChunks: no chunks to merge');
  const settings = { ...MERGE_DEFAULTS, normalize: true, ...withoutUndefined(options) };
  requireRange('pauseMs', settings.pauseMs, 0, MAX_MS);
  requireRange('paragraphPauseMs', settings.paragraphPauseMs, 0, MAX_MS);
  requireRange('crossfadeMs', settings.crossfadeMs, 0, MAX_MS);
  const sampleRate = options.sampleRate ?? chunks[0]!.pcm.sampleRate;
  requireRange('sample rate', sampleRate, 1000, 768000);
  const pieces = await atRate(
    chunks.map((chunk) => chunk.pcm),
    sampleRate,
    options.signal,
  );
  const toSamples = (ms: number) => Math.round((ms * sampleRate) / 1000);
  const joins = pieces.slice(1).map((piece, i): Join => {
    const gap = toSamples(chunks[i]!.paragraphEnd ? settings.paragraphPauseMs : settings.pauseMs);
    const limit = Math.floor(Math.min(pieces[i]!.samples.length, piece.samples.length) / 2);
    return { gap, overlap: gap === 0 ? Math.min(toSamples(settings.crossfadeMs), limit) : 0 };
  });
  const { samples, offsets } = mix(pieces, joins, toSamples(EDGE_FADE_SECONDS * 1000));
  const placements = pieces.map((piece, index) => ({
    index,
    start: offsets[index]! / sampleRate,
    end: (offsets[index]! + piece.samples.length) / sampleRate,
  }));
  const merged = { samples, sampleRate };
  const finished = settings.normalize
    ? await normalizeLoudness(merged, settings.targetLufs, TRUE_PEAK_CEILING_DBTP - 0.5, options.signal)
    : await underCeiling(merged, options.signal);
  // Placements must stay true: a round trip through a higher rate may shift the length by a sample.
  return { pcm: { samples: withLength(finished.samples, samples.length), sampleRate }, placements };
}

/**
 * Limits true peaks to the ceiling when they pass it (loudnorm, above, limits them itself); audio
 * already under it is left exactly as it is.
 */
async function underCeiling(pcm: Pcm, signal?: AbortSignal): Promise<Pcm> {
  const { truePeakDb } = await measureLoudness(pcm, signal);
  return truePeakDb > TRUE_PEAK_CEILING_DBTP ? filterPcm(pcm, truePeakLimiter(pcm.sampleRate), signal) : pcm;
}

/** Resamples only the chunks whose rate differs, keeping the length each rate implies exactly. */
async function atRate(pieces: Pcm[], sampleRate: number, signal?: AbortSignal): Promise<Pcm[]> {
  const converted: Pcm[] = [];
  for (const pcm of pieces) {
    signal?.throwIfAborted();
    if (pcm.sampleRate === sampleRate) converted.push(pcm);
    else {
      const length = Math.round((pcm.samples.length * sampleRate) / pcm.sampleRate);
      converted.push({ samples: withLength((await resample(pcm, sampleRate, signal)).samples, length), sampleRate });
    }
  }
  return converted;
}

/** Adds the faded pieces into one buffer at their offsets; overlapping fades sum to a crossfade. */
function mix(pieces: Pcm[], joins: Join[], edgeFade: number): { samples: Float32Array; offsets: number[] } {
  const offsets = [0];
  joins.forEach((join, i) => offsets.push(offsets[i]! + pieces[i]!.samples.length + join.gap - join.overlap));
  const last = pieces.length - 1;
  const samples = new Float32Array(offsets[last]! + pieces[last]!.samples.length);
  pieces.forEach((piece, i) => {
    const shaped = piece.samples.slice();
    fade(shaped, fadeLength(joins[i - 1], edgeFade, shaped.length), 'in');
    fade(shaped, fadeLength(joins[i], edgeFade, shaped.length), 'out');
    for (let k = 0; k < shaped.length; k++) samples[offsets[i]! + k]! += shaped[k]!;
  });
  return { samples, offsets };
}

/** The fade at a join: the whole overlap, a short edge fade before a pause, none at a butt splice. */
function fadeLength(join: Join | undefined, edgeFade: number, length: number): number {
  if (!join) return 0;
  if (join.overlap > 0) return join.overlap;
  return join.gap > 0 ? Math.min(edgeFade, Math.floor(length / 2)) : 0;
}

/**
 * Quarter-sine fade over `length` samples at one end. Fade-out is cos where fade-in is sin, so the
 * squared gains of an overlapping pair sum to 1: equal power, no dip for uncorrelated voices.
 */
function fade(samples: Float32Array, length: number, direction: 'in' | 'out'): void {
  for (let k = 0; k < length; k++) {
    const gain = Math.sin((Math.PI / 2) * ((k + 0.5) / length));
    const at = direction === 'in' ? k : samples.length - 1 - k;
    samples[at]! *= gain;
  }
}

/** Cuts or zero-extends samples to `length`. */
function withLength(samples: Float32Array, length: number): Float32Array {
  if (samples.length === length) return samples;
  const result = new Float32Array(length);
  result.set(samples.subarray(0, length));
  return result;
}

/** Drops undefined options so that spreading them keeps the defaults. */
function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
