import { rms, type Pcm } from './pcm.js';
import { requireRange } from './validate.js';

export interface SilenceOptions {
  /** Frames whose RMS is below this (dBFS) count as silence. Default -45. */
  thresholdDb?: number;
}

export interface TrimOptions extends SilenceOptions {
  /** Silence kept on each side of the sound, so words are not clipped. Default 0.05 s. */
  padSeconds?: number;
}

/** A span of the original audio, in seconds from its start. */
export interface Span {
  start: number;
  end: number;
}

export interface Trimmed extends Span {
  /** The kept audio, from `start` to `end` of the original. */
  pcm: Pcm;
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

/**
 * Removes leading and trailing silence, keeping `padSeconds` of it on each side (less where the
 * audio ends first). All-silent input trims to empty audio at offset 0.
 */
export function trimSilence(pcm: Pcm, options: TrimOptions = {}): Trimmed {
  const bounds = speechBounds(pcm, options);
  if (!bounds) return { pcm: { samples: new Float32Array(0), sampleRate: pcm.sampleRate }, start: 0, end: 0 };
  const padSeconds = options.padSeconds ?? 0.05;
  requireRange('padSeconds', padSeconds, 0, 60);
  const pad = Math.round(padSeconds * pcm.sampleRate);
  const first = Math.max(0, Math.round(bounds.start * pcm.sampleRate) - pad);
  const end = Math.min(pcm.samples.length, Math.round(bounds.end * pcm.sampleRate) + pad);
  return {
    pcm: { samples: pcm.samples.slice(first, end), sampleRate: pcm.sampleRate },
    start: first / pcm.sampleRate,
    end: end / pcm.sampleRate,
  };
}
