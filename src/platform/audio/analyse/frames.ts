import type { Pcm } from '../pcm.js';

/**
 * The frame grid shared by every analysis: frame i is centred on sample i·hop, so the pitch,
 * MFCC, formant and level tracks of one signal line up index by index when they use one hop.
 */

export const HOP_SECONDS = 0.01;

export function hopSamples(sampleRate: number, hopSeconds = HOP_SECONDS): number {
  return Math.max(1, Math.round(sampleRate * hopSeconds));
}

export function frameCount(length: number, hop: number): number {
  return length === 0 ? 0 : Math.floor((length - 1) / hop) + 1;
}

/**
 * The `out.length` samples centred on `centre` (zeros beyond the signal's ends), multiplied by
 * `window` when given.
 */
export function readFrame(samples: Float32Array, centre: number, out: Float64Array, window?: Float64Array): Float64Array {
  const start = centre - Math.floor(out.length / 2);
  for (let i = 0; i < out.length; i++) {
    const at = start + i;
    const value = at >= 0 && at < samples.length ? samples[at]! : 0;
    out[i] = window ? value * window[i]! : value;
  }
  return out;
}

/** RMS level in dBFS of each frame (`windowSeconds` long) on the grid. */
export function frameLevelsDb(pcm: Pcm, windowSeconds = 0.03, hopSeconds = HOP_SECONDS): Float64Array {
  const hop = hopSamples(pcm.sampleRate, hopSeconds);
  const frame = new Float64Array(Math.max(1, Math.round(pcm.sampleRate * windowSeconds)));
  const levels = new Float64Array(frameCount(pcm.samples.length, hop));
  for (let i = 0; i < levels.length; i++) {
    readFrame(pcm.samples, i * hop, frame);
    let sum = 0;
    for (const value of frame) sum += value * value;
    levels[i] = 10 * Math.log10(sum / frame.length + 1e-12);
  }
  return levels;
}

/**
 * Frames that hold sound rather than silence: within `rangeDb` of the loud end (95th percentile,
 * so a click does not set the reference) and above an absolute floor of -60 dBFS.
 */
export function soundMask(levelsDb: Float64Array, rangeDb = 35): Uint8Array {
  const reference = percentile(Array.from(levelsDb), 0.95);
  const gate = Math.max(reference - rangeDb, -60);
  return Uint8Array.from(levelsDb, (level) => (level > gate ? 1 : 0));
}

/** Linear-interpolated percentile (q in 0..1); NaN for an empty list. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}
