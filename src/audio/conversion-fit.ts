import { LTAS_BAND_CENTRES_HZ, type VoiceAnalysis } from './analyse/index.js';
import { CONVERSION_LIMITS, IDENTITY_CONVERSION, type VoiceConversion } from './voice-conversion.js';

/**
 * Fits a conversion chain so that a source voice measures like a target voice. Each step reads how
 * far the current result still is from the target (pitch, formants, speaking rate, long-term
 * spectrum) and corrects the conversion by that much; two or three steps converge, because the
 * rubberband and equalizer stages interact only a little.
 */

/** Peaking bands sit on the analysis's half-octave LTAS grid; Q 2 is about half an octave wide. */
const BAND_Q = 2;
/** Corrections are damped where the measures are noisy (formants, rate) or the bands overlap (EQ). */
const FORMANT_DAMPING = 0.5;
const EQ_DAMPING = 0.7;
/** Rate measures of different texts are rough: the fitted tempo stays within this. */
const FITTED_TEMPO = { min: 0.7, max: 1.4 };
/** Small corrections are left out: they cost filters and change nothing audible. */
const MIN_BAND_GAIN_DB = 0.5;

const clamp = (value: number, limits: { min: number; max: number }) => Math.min(limits.max, Math.max(limits.min, value));

/** Mean ratio of matching formants (F1..F3), geometric, over the formants both analyses found. */
function formantRatio(from: VoiceAnalysis, to: VoiceAnalysis): number {
  const logs = from.formants.meanHz.flatMap((hz, i) => {
    const target = to.formants.meanHz[i];
    return Number.isFinite(hz) && hz > 0 && target !== undefined && Number.isFinite(target) && target > 0 ? [Math.log(target / hz)] : [];
  });
  return logs.length === 0 ? 1 : Math.exp(logs.reduce((sum, value) => sum + value, 0) / logs.length);
}

function ratioOf(target: number, current: number): number {
  return Number.isFinite(target) && Number.isFinite(current) && target > 0 && current > 0 ? target / current : 1;
}

/**
 * One correction step: `current` is the analysis of the source after `conversion`. The first
 * step starts from the identity with `current` the unconverted source.
 */
export function fitStep(conversion: VoiceConversion, current: VoiceAnalysis, target: VoiceAnalysis, nyquistHz: number): VoiceConversion {
  const pitchRatio = ratioOf(target.pitch.medianHz, current.pitch.medianHz);
  return {
    semitones: round(clamp(conversion.semitones + 12 * Math.log2(pitchRatio), CONVERSION_LIMITS.semitones), 100),
    formantScale: round(clamp(conversion.formantScale * formantRatio(current, target) ** FORMANT_DAMPING, CONVERSION_LIMITS.formantScale), 1000),
    tempo: conversion.tempo,
    equalizer: equalizerStep(conversion, current, target, nyquistHz),
  };
}

/** Adds the remaining long-term-spectrum difference, band by band, to the equalizer's gains. */
function equalizerStep(conversion: VoiceConversion, current: VoiceAnalysis, target: VoiceAnalysis, nyquistHz: number): VoiceConversion['equalizer'] {
  const gains = new Map(conversion.equalizer.map((band) => [round(band.frequency, 10), band.gainDb]));
  LTAS_BAND_CENTRES_HZ.forEach((centre, k) => {
    const frequency = round(centre, 10);
    if (frequency >= nyquistHz * 0.9) return;
    const difference = (target.spectrum.ltasDb[k] ?? 0) - (current.spectrum.ltasDb[k] ?? 0);
    if (!Number.isFinite(difference)) return;
    gains.set(frequency, clamp((gains.get(frequency) ?? 0) + EQ_DAMPING * difference, CONVERSION_LIMITS.gainDb));
  });
  return [...gains]
    .filter(([, gainDb]) => Math.abs(gainDb) >= MIN_BAND_GAIN_DB)
    .sort(([a], [b]) => a - b)
    .map(([frequency, gainDb]) => ({ frequency, gainDb: round(gainDb, 10), q: BAND_Q }));
}

/**
 * The first step sets pitch, formants and tempo; the spectrum is judged once they are in place.
 * Tempo is set here only: stretching scales the rate exactly, while the syllable-nucleus count of
 * stretched speech is less reliable than that of the unconverted voice.
 */
export function firstFitStep(source: VoiceAnalysis, target: VoiceAnalysis, nyquistHz: number): VoiceConversion {
  const rateRatio = ratioOf(target.rate.articulationRate, source.rate.articulationRate);
  const tempo = round(clamp(rateRatio, FITTED_TEMPO), 1000);
  return { ...fitStep(IDENTITY_CONVERSION, source, target, nyquistHz), tempo, equalizer: [] };
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
