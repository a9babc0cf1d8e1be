import { rms, type Pcm } from './pcm.js';

export interface SilenceOptions {
  /** Frames whose RMS is below this (dBFS) count as silence. Default -45. */
  thresholdDb?: number;
}

/** A span of the original audio, in seconds from its start. */
export interface Span {
  start: number;
  end: number;
}

/** 10 ms frames: short enough to place the edges precisely, long enough for a stable RMS. */
const FRAME_SECONDS = 0.01;

/**
 * Where sound starts and ends: from the first to the last frame whose RMS reaches the
 * threshold. Null when there is none (silence or empty input).
 */
export function speechBounds(pcm: Pcm, options: SilenceOptions = {}): Span | null {
  const threshold = 10 ** ((options.thresholdDb ?? -45) / 20);
  const frameLength = Math.max(1, Math.round(pcm.sampleRate * FRAME_SECONDS));
  const frameCount = Math.ceil(pcm.samples.length / frameLength);
  const isLoud = (frame: number) => rms(pcm.samples.subarray(frame * frameLength, (frame + 1) * frameLength)) >= threshold;
  let first = 0;
  while (first < frameCount && !isLoud(first)) first++;
  if (first === frameCount) return null;
  let last = frameCount - 1;
  while (!isLoud(last)) last--;
  const end = Math.min(pcm.samples.length, (last + 1) * frameLength);
  return { start: (first * frameLength) / pcm.sampleRate, end: end / pcm.sampleRate };
}
