import { frameLevelsDb, HOP_SECONDS, percentile, soundMask } from '../../platform/audio/analyse/frames.js';
import { concatPcm, type Pcm } from '../../platform/audio/pcm.js';
import type { Span } from '../../platform/audio/trim.js';

/**
 * What decides whether a recording can serve as a voice sample: where the speech is, how much of
 * it there is, how clean it is. Pure functions on PCM; the clone intake turns them into errors and
 * warnings.
 */

/** A sample at or above this magnitude counts as clipped (full scale, allowing for dithering). */
const CLIP_LEVEL = 0.999;
/** Pauses inside speech up to this long are kept as they are; longer ones are shortened to it. */
const MAX_PAUSE_SECONDS = 0.3;
/** Sound shorter than this (a click, a breath) is not speech. */
const MIN_REGION_SECONDS = 0.12;

/** Fraction of samples at full scale. */
export function clippedFraction(pcm: Pcm): number {
  if (pcm.samples.length === 0) return 0;
  let clipped = 0;
  for (const value of pcm.samples) if (Math.abs(value) >= CLIP_LEVEL) clipped++;
  return clipped / pcm.samples.length;
}

/** Loudest 30 ms frame, dBFS (-120 for empty input). */
export function peakLevelDb(pcm: Pcm): number {
  const levels = frameLevelsDb(pcm);
  return levels.length === 0 ? -120 : Math.max(...levels);
}

/**
 * Signal-to-noise estimate, dB: the loud end of the frame levels (90th percentile, speech) over the
 * quiet end (10th percentile, the floor between words). Continuous speech without pauses reads
 * low-ish (15–20 dB) because its quiet end is still speech; hiss or hum under speech reads lower.
 */
export function estimateSnrDb(pcm: Pcm): number {
  const levels = Array.from(frameLevelsDb(pcm));
  if (levels.length === 0) return 0;
  return Math.min(60, percentile(levels, 0.9) - Math.max(percentile(levels, 0.1), -120));
}

/**
 * Where there is sound, by level alone (the fallback when no VAD model is installed): frames within
 * 35 dB of the loud end, gaps shorter than a pause bridged, blips dropped.
 */
export function energySpeechRegions(pcm: Pcm): Span[] {
  const mask = soundMask(frameLevelsDb(pcm));
  const regions: Span[] = [];
  let start = -1;
  mask.forEach((sound, frame) => {
    if (sound && start < 0) start = frame;
    if ((!sound || frame === mask.length - 1) && start >= 0) {
      regions.push({ start: start * HOP_SECONDS, end: Math.min((sound ? frame + 1 : frame) * HOP_SECONDS, pcm.samples.length / pcm.sampleRate) });
      start = -1;
    }
  });
  return mergeRegions(regions, MAX_PAUSE_SECONDS).filter((region) => region.end - region.start >= MIN_REGION_SECONDS);
}

/** Joins regions whose gap is at most `maxGap` seconds. */
export function mergeRegions(regions: readonly Span[], maxGap: number): Span[] {
  const merged: Span[] = [];
  for (const region of [...regions].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && region.start - last.end <= maxGap) last.end = Math.max(last.end, region.end);
    else merged.push({ ...region });
  }
  return merged;
}

export function totalSeconds(regions: readonly Span[]): number {
  return regions.reduce((sum, region) => sum + (region.end - region.start), 0);
}

/** The speech regions cut out and joined, each pause between them shortened to at most 0.3 s. */
export function joinSpeech(pcm: Pcm, regions: readonly Span[]): Pcm {
  const pause = new Float32Array(Math.round(MAX_PAUSE_SECONDS * pcm.sampleRate));
  const pieces: Pcm[] = [];
  regions.forEach((region, index) => {
    if (index > 0) pieces.push({ samples: pause, sampleRate: pcm.sampleRate });
    pieces.push({
      samples: pcm.samples.subarray(Math.floor(region.start * pcm.sampleRate), Math.ceil(region.end * pcm.sampleRate)),
      sampleRate: pcm.sampleRate,
    });
  });
  return concatPcm(pieces, pcm.sampleRate);
}

/**
 * The `maxSeconds` stretch of the audio holding the most speech, as the regions inside it (cut at
 * its edges). Starts are tried at every region start, which is where an optimal window can begin.
 */
export function bestSpeechWindow(regions: readonly Span[], maxSeconds: number): Span[] {
  let best: Span[] = [];
  let bestSpeech = -1;
  for (const first of regions) {
    const end = first.start + maxSeconds;
    const inside = regions
      .filter((region) => region.end > first.start && region.start < end)
      .map((region) => ({ start: Math.max(region.start, first.start), end: Math.min(region.end, end) }));
    const speech = totalSeconds(inside);
    if (speech > bestSpeech) {
      best = inside;
      bestSpeech = speech;
    }
  }
  return best;
}

/** Consecutive windows of `seconds` (the last one dropped when shorter than half of that). */
export function splitWindows(pcm: Pcm, seconds: number): Pcm[] {
  const length = Math.round(seconds * pcm.sampleRate);
  const windows: Pcm[] = [];
  for (let start = 0; start < pcm.samples.length; start += length) {
    const samples = pcm.samples.subarray(start, start + length);
    if (samples.length >= length / 2) windows.push({ samples, sampleRate: pcm.sampleRate });
  }
  return windows;
}
