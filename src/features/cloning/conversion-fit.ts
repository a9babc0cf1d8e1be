import { LTAS_BAND_CENTRES_HZ, type VoiceAnalysis } from '../../platform/audio/analyse/index.js';
import { CONVERSION_LIMITS } from '../../platform/audio/voice-conversion.js';
import type { VoiceConversion } from '../../platform/audio/conversion-schema.js';
import { roundTo } from '../../platform/util/round.js';

/**
 * Fits how a source voice is rendered so that it measures like a target voice. Pitch and speaking
 * rate go to the engine where it can set them natively (speech stays clean; a pitch shift of the
 * audio afterwards smears it), the rest to the conversion chain: pitch beyond the engine's range,
 * formant scale, equalizer. Each step reads how far the current result still is from the target
 * and corrects by that much; two or three steps converge.
 */
export interface VoiceFit {
  /** Pitch factor the engine applies (1 when it has no native pitch). */
  enginePitch: number;
  /** Speed factor the engine applies: the target's speaking rate over the voice's. */
  engineSpeed: number;
  conversion: VoiceConversion;
}

/** Peaking bands sit on the analysis's half-octave LTAS grid; Q 2 is about half an octave wide. */
const BAND_Q = 2;
/** Corrections are damped where the measures are noisy (formants) or the bands overlap (EQ). */
const FORMANT_DAMPING = 0.5;
const EQ_DAMPING = 0.7;
/** The equalizer stays gentle: larger boosts and cuts make speech less intelligible than they make it alike. */
const MAX_BAND_GAIN_DB = 9;
/** Small corrections are left out: they cost filters and change nothing audible. */
const MIN_BAND_GAIN_DB = 0.5;
/**
 * Syllable-nucleus rates of different texts and recordings are rough (continuous read speech
 * counts low): the speed moves half-way, in log terms, and stays within this.
 */
const FITTED_SPEED = { min: 0.8, max: 1.25 };
const SPEED_DAMPING = 0.5;
/** Formant scaling beyond this makes the words hard to follow; designs may go further on purpose. */
const FITTED_FORMANT_SCALE = { min: 0.85, max: 1.18 };

/** The pitch factors an engine applies natively; undefined for engines without. */
export type PitchRange = { min: number; max: number };

const clamp = (value: number, limits: { min: number; max: number }) => Math.min(limits.max, Math.max(limits.min, value));

function ratioOf(target: number, current: number): number {
  return Number.isFinite(target) && Number.isFinite(current) && target > 0 && current > 0 ? target / current : 1;
}

/** Mean ratio of matching formants (F1..F3), geometric, over the formants both analyses found. */
function formantRatio(from: VoiceAnalysis, to: VoiceAnalysis): number {
  const logs = from.formants.meanHz.flatMap((hz, i) => {
    const target = to.formants.meanHz[i];
    return Number.isFinite(hz) && hz > 0 && target !== undefined && Number.isFinite(target) && target > 0 ? [Math.log(target / hz)] : [];
  });
  return logs.length === 0 ? 1 : Math.exp(logs.reduce((sum, value) => sum + value, 0) / logs.length);
}

/**
 * The first fit, from the unconverted source: pitch and speed set, formants half-way, no equalizer
 * yet (the spectrum is judged once pitch and formants are in place). Speed is set here only: the
 * syllable count of the source's own rendering is more reliable than that of changed renderings.
 */
export function firstFit(source: VoiceAnalysis, target: VoiceAnalysis, nativePitch: PitchRange | undefined): VoiceFit {
  const start: VoiceFit = {
    enginePitch: 1,
    engineSpeed: roundTo(clamp(ratioOf(target.rate.articulationRate, source.rate.articulationRate) ** SPEED_DAMPING, FITTED_SPEED), 3),
    conversion: { semitones: 0, formantScale: 1, tempo: 1, equalizer: [] },
  };
  const fitted = withPitch(start, ratioOf(target.pitch.medianHz, source.pitch.medianHz), nativePitch);
  return { ...fitted, conversion: { ...fitted.conversion, formantScale: formantStep(1, source, target) } };
}

/** One correction step; `current` is the analysis of the source rendered with `fit`. */
export function nextFit(fit: VoiceFit, current: VoiceAnalysis, target: VoiceAnalysis, nativePitch: PitchRange | undefined, nyquistHz: number): VoiceFit {
  const pitched = withPitch(fit, ratioOf(target.pitch.medianHz, current.pitch.medianHz), nativePitch);
  return {
    ...pitched,
    conversion: {
      ...pitched.conversion,
      formantScale: formantStep(fit.conversion.formantScale, current, target),
      equalizer: equalizerStep(fit.conversion.equalizer, current, target, nyquistHz),
    },
  };
}

/** Multiplies the pitch by `ratio`: natively as far as the engine goes, the rest by the conversion. */
export function withPitch(fit: VoiceFit, ratio: number, nativePitch: PitchRange | undefined): VoiceFit {
  const wanted = fit.enginePitch * 2 ** (fit.conversion.semitones / 12) * ratio;
  const enginePitch = nativePitch ? roundTo(clamp(wanted, nativePitch), 3) : 1;
  const semitones = roundTo(clamp(12 * Math.log2(wanted / enginePitch), CONVERSION_LIMITS.semitones), 2);
  return { ...fit, enginePitch, conversion: { ...fit.conversion, semitones } };
}

function formantStep(scale: number, current: VoiceAnalysis, target: VoiceAnalysis): number {
  return roundTo(clamp(scale * formantRatio(current, target) ** FORMANT_DAMPING, FITTED_FORMANT_SCALE), 3);
}

/** Adds the remaining long-term-spectrum difference, band by band, to the equalizer's gains. */
function equalizerStep(bands: VoiceConversion['equalizer'], current: VoiceAnalysis, target: VoiceAnalysis, nyquistHz: number): VoiceConversion['equalizer'] {
  const gains = new Map(bands.map((band) => [roundTo(band.frequency, 1), band.gainDb]));
  LTAS_BAND_CENTRES_HZ.forEach((centre, k) => {
    const frequency = roundTo(centre, 1);
    if (frequency >= nyquistHz * 0.9) return;
    const difference = (target.spectrum.ltasDb[k] ?? 0) - (current.spectrum.ltasDb[k] ?? 0);
    if (!Number.isFinite(difference)) return;
    gains.set(frequency, clamp((gains.get(frequency) ?? 0) + EQ_DAMPING * difference, { min: -MAX_BAND_GAIN_DB, max: MAX_BAND_GAIN_DB }));
  });
  return [...gains]
    .filter(([, gainDb]) => Math.abs(gainDb) >= MIN_BAND_GAIN_DB)
    .sort(([a], [b]) => a - b)
    .map(([frequency, gainDb]) => ({ frequency, gainDb: roundTo(gainDb, 1), q: BAND_Q }));
}

/** Half-way back to the voice's own formants and spectrum: for a fit that made the words unclear. */
export function milderFit(fit: VoiceFit): VoiceFit {
  return {
    ...fit,
    conversion: {
      ...fit.conversion,
      formantScale: roundTo(Math.sqrt(fit.conversion.formantScale), 3),
      equalizer: fit.conversion.equalizer
        .map((band) => ({ ...band, gainDb: roundTo(band.gainDb / 2, 1) }))
        .filter((band) => Math.abs(band.gainDb) >= MIN_BAND_GAIN_DB),
    },
  };
}
