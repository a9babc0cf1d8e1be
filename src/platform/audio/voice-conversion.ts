import { filterPcm } from './decode.js';
import { equalizerFilter } from './effects.js';
import type { VoiceConversion } from './conversion-schema.js';
import type { Pcm } from './pcm.js';
import { requireRange } from './validate.js';

/** Beyond these the result stops sounding like speech, so fitted values are clamped to them. */
export const CONVERSION_LIMITS = {
  semitones: { min: -12, max: 12 },
  formantScale: { min: 0.75, max: 1.33 },
  tempo: { min: 0.5, max: 2 },
  gainDb: { min: -15, max: 15 },
} as const;

/** rubberband does not flush its stretcher at the end and each pass loses up to ~70 ms of the tail. */
const TAIL_PADDING_SECONDS = 0.5;
/** Equalizer boosts may push peaks over full scale; louder output is scaled back to this peak. */
const PEAK_LIMIT = 0.97;

/**
 * Applies a conversion with ffmpeg: rubberband first scales pitch and envelope together by the
 * formant scale (formant=shifted), then moves the pitch alone the rest of the way at the new tempo
 * (formant=preserved), then the equalizer. Output is exactly input length / tempo long.
 */
export async function convertVoice(pcm: Pcm, conversion: VoiceConversion, signal?: AbortSignal): Promise<Pcm> {
  checkConversion(conversion);
  const filters = conversionFilters(conversion, pcm.sampleRate / 2);
  if (filters.length === 0) return { samples: pcm.samples.slice(), sampleRate: pcm.sampleRate };
  const padded = new Float32Array(pcm.samples.length + Math.round(TAIL_PADDING_SECONDS * pcm.sampleRate));
  padded.set(pcm.samples);
  const converted = await filterPcm({ samples: padded, sampleRate: pcm.sampleRate }, filters.join(','), signal);
  const length = Math.round(pcm.samples.length / conversion.tempo);
  const samples = new Float32Array(length);
  samples.set(converted.samples.subarray(0, length));
  return { samples: limitPeak(samples), sampleRate: pcm.sampleRate };
}

export function checkConversion(conversion: VoiceConversion): void {
  requireRange('semitones', conversion.semitones, CONVERSION_LIMITS.semitones.min, CONVERSION_LIMITS.semitones.max);
  requireRange('formant scale', conversion.formantScale, CONVERSION_LIMITS.formantScale.min, CONVERSION_LIMITS.formantScale.max);
  requireRange('tempo', conversion.tempo, CONVERSION_LIMITS.tempo.min, CONVERSION_LIMITS.tempo.max);
}

function conversionFilters(conversion: VoiceConversion, nyquist: number): string[] {
  const filters: string[] = [];
  const pitchRatio = 2 ** (conversion.semitones / 12);
  if (conversion.formantScale !== 1) filters.push(`rubberband=pitch=${conversion.formantScale}:formant=shifted`);
  const remainingPitch = pitchRatio / conversion.formantScale;
  if (remainingPitch !== 1 || conversion.tempo !== 1) {
    filters.push(`rubberband=pitch=${remainingPitch}:tempo=${conversion.tempo}:formant=preserved`);
  }
  for (const band of conversion.equalizer) filters.push(equalizerFilter(band, nyquist));
  return filters;
}

function limitPeak(samples: Float32Array): Float32Array {
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  if (peak <= PEAK_LIMIT) return samples;
  const gain = PEAK_LIMIT / peak;
  for (let i = 0; i < samples.length; i++) samples[i]! *= gain;
  return samples;
}
