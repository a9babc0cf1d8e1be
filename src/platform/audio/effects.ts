import { filterPcm } from './decode.js';
import type { Pcm } from './pcm.js';
import { requireRange } from './validate.js';
import type { EqualizerBand } from './conversion-schema.js';

export interface PitchTempoOptions {
  /** Pitch shift in semitones; 12 is one octave up. Default 0. */
  semitones?: number;
  /** Speed factor; 2 plays twice as fast (half the duration) at the same pitch. Default 1. */
  tempo?: number;
  /** Keep the spectral envelope, so a shifted voice sounds less like a chipmunk. Default false. */
  formantPreserve?: boolean;
  signal?: AbortSignal;
}

/** rubberband's own limits for both factors. */
const RUBBERBAND_MIN = 0.01;
const RUBBERBAND_MAX = 100;

/**
 * ffmpeg's rubberband filter does not flush the stretcher at the end of input and loses up to
 * ~70 ms of the tail, so the input gets this much silence appended and the output is cut back
 * to the exact stretched length.
 */
const RUBBERBAND_TAIL_SECONDS = 0.25;

/**
 * Changes pitch and/or tempo independently with ffmpeg's rubberband filter; same rate out, and
 * exactly input length / tempo long.
 */
export async function changePitchTempo(pcm: Pcm, options: PitchTempoOptions): Promise<Pcm> {
  const pitch = 2 ** ((options.semitones ?? 0) / 12);
  const tempo = options.tempo ?? 1;
  requireRange('pitch ratio (2^(semitones/12))', pitch, RUBBERBAND_MIN, RUBBERBAND_MAX);
  requireRange('tempo', tempo, RUBBERBAND_MIN, RUBBERBAND_MAX);
  if (pitch === 1 && tempo === 1) return copyOf(pcm);
  const formant = options.formantPreserve ? 'preserved' : 'shifted';
  const padded = new Float32Array(pcm.samples.length + Math.round(RUBBERBAND_TAIL_SECONDS * pcm.sampleRate));
  padded.set(pcm.samples);
  const stretched = await filterPcm(
    { samples: padded, sampleRate: pcm.sampleRate },
    `rubberband=pitch=${pitch}:tempo=${tempo}:formant=${formant}`,
    options.signal,
  );
  return { samples: withLength(stretched.samples, Math.round(pcm.samples.length / tempo)), sampleRate: pcm.sampleRate };
}

/** Converts to another sample rate with ffmpeg's `aresample`. */
export async function resample(pcm: Pcm, sampleRate: number, signal?: AbortSignal): Promise<Pcm> {
  requireRange('sample rate', sampleRate, 1000, 768000);
  if (sampleRate === pcm.sampleRate) return copyOf(pcm);
  return filterPcm(pcm, `aresample=${sampleRate}`, signal, sampleRate);
}

export function equalizerFilter(band: EqualizerBand, nyquist: number): string {
  const q = band.q ?? 1;
  requireRange('equalizer frequency', band.frequency, 1, nyquist);
  requireRange('equalizer q', q, 0.01, 1000);
  requireRange('equalizer gain (dB)', band.gainDb, -60, 60);
  return `equalizer=f=${band.frequency}:t=q:w=${q}:g=${band.gainDb}`;
}

/** Cuts or zero-extends samples to `length`. */
function withLength(samples: Float32Array, length: number): Float32Array {
  if (samples.length >= length) return samples.slice(0, length);
  const extended = new Float32Array(length);
  extended.set(samples);
  return extended;
}

function copyOf(pcm: Pcm): Pcm {
  return { samples: pcm.samples.slice(), sampleRate: pcm.sampleRate };
}
