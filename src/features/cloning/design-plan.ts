import { Type, type Static } from 'typebox';
import type { EqualizerBand } from '../../platform/audio/conversion-schema.js';
import type { Gender } from '../../platform/engines/types.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { parseVoiceDescription, type DescribedVoice, type UnderstoodWord } from '../../platform/text/voice-description.js';
import { speaksLanguage, type SpeakingVoice } from '../../platform/speech/speech.js';
import { roundTo } from '../../platform/util/round.js';

/**
 * Voice design, the pure part: a description (plus explicit fields) becomes target attributes, a
 * base voice and the targets of the conversion chain. Deterministic; a seed only changes the
 * choice among equally good base voices and adds a small, repeatable variation.
 */

export const AgeSchema = Type.Enum(['child', 'young', 'adult', 'old']);
export type Age = Static<typeof AgeSchema>;

export const DesignInputSchema = Type.Object({
  description: Type.String(),
  language: Type.String(),
  gender: Type.Optional(Type.Enum(['female', 'male'])),
  age: Type.Optional(AgeSchema),
  accent: Type.Optional(Type.String()),
  /** Steps from the voice's normal, −2 (very low / very slow) … +2 (very high / very fast). */
  pitch: Type.Optional(Type.Number()),
  pace: Type.Optional(Type.Number()),
  seed: Type.Optional(Type.Integer()),
});
export type DesignInput = Static<typeof DesignInputSchema>;

export interface DesignAttributes {
  gender: Gender | null;
  age: Age | null;
  accent: string | null;
  pitch: number;
  pace: number;
  energy: number;
  brightness: number;
  breathiness: number;
}

export interface DesignTargets {
  /** Median F0 the design should measure, Hz. */
  f0Hz: number;
  /** Formant scale on top of the pitch shift (children and youth have shorter vocal tracts). */
  formantScale: number;
  /** Tempo relative to the base voice. */
  tempo: number;
  equalizer: EqualizerBand[];
}

/** Typical speaking F0 by gender (Hz); unknown gender sits between. */
const BASE_F0: Record<Gender | 'neutral', number> = { male: 115, female: 205, neutral: 160 };
const AGE_F0_FACTOR: Record<Age, number> = { child: 1.45, young: 1.06, adult: 1, old: 0.94 };
const AGE_FORMANT_SCALE: Record<Age, number> = { child: 1.15, young: 1.04, adult: 1, old: 0.97 };
/** Semitones per pitch step, tempo change per pace step, tempo change per energy step. */
const SEMITONES_PER_STEP = 2;
const TEMPO_PER_PACE_STEP = 0.13;
const TEMPO_PER_ENERGY_STEP = 0.03;
/** Brightness tilts the spectrum (dB per step at the high bands, half the opposite at the low). */
const BRIGHTNESS_DB = 3;
const ENERGY_PRESENCE_DB = 1.5;

export function designAttributes(input: DesignInput): { attributes: DesignAttributes; understood: UnderstoodWord[]; ignored: string[] } {
  const described: DescribedVoice = parseVoiceDescription(input.description);
  const clampSteps = (value: number | undefined) => Math.max(-2, Math.min(2, value ?? 0));
  return {
    attributes: {
      gender: input.gender ?? described.gender ?? null,
      age: input.age ?? described.age ?? null,
      accent: input.accent ?? described.accent ?? null,
      pitch: clampSteps(input.pitch ?? described.pitch),
      pace: clampSteps(input.pace ?? described.pace),
      energy: clampSteps(described.energy),
      brightness: clampSteps(described.brightness),
      breathiness: Math.max(0, Math.min(2, described.breathiness ?? 0)),
    },
    understood: described.understood,
    ignored: described.ignored,
  };
}

export function designTargets(attributes: DesignAttributes, seed: number | undefined): DesignTargets {
  const jitter = seededJitter(seed);
  const age = attributes.age ?? 'adult';
  const f0Hz = BASE_F0[attributes.gender ?? 'neutral'] * AGE_F0_FACTOR[age] * 2 ** ((attributes.pitch * SEMITONES_PER_STEP + jitter(0.6)) / 12);
  const tempo = (1 + attributes.pace * TEMPO_PER_PACE_STEP + attributes.energy * TEMPO_PER_ENERGY_STEP) * (1 + jitter(0.03));
  const formantScale = AGE_FORMANT_SCALE[age] * (1 + 0.015 * attributes.pitch) * (1 + jitter(0.02));
  const equalizer: EqualizerBand[] = [];
  if (attributes.brightness !== 0) {
    equalizer.push({ frequency: 250, gainDb: (-BRIGHTNESS_DB / 2) * attributes.brightness, q: 0.7 });
    equalizer.push({ frequency: 3500, gainDb: BRIGHTNESS_DB * attributes.brightness, q: 0.7 });
  }
  if (attributes.energy !== 0) equalizer.push({ frequency: 2000, gainDb: ENERGY_PRESENCE_DB * attributes.energy, q: 1 });
  return { f0Hz: roundTo(f0Hz, 3), formantScale: roundTo(formantScale, 3), tempo: roundTo(tempo, 3), equalizer };
}

/** Without an accent, a bare language is heard in its most widespread region. */
const DEFAULT_REGION: Readonly<Record<string, string>> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE', it: 'it-IT', pt: 'pt-BR', nl: 'nl-NL' };

/**
 * Base voices ranked for the attributes: accent (region) match, then gender, then the engine's
 * quality order; the seed picks among the equally ranked best.
 */
export function chooseBaseVoice(
  voices: readonly SpeakingVoice[],
  attributes: DesignAttributes,
  language: string,
  engineOrder: readonly EngineId[],
  seed: number | undefined,
): SpeakingVoice | undefined {
  const speaking = voices.filter((voice) => voice.available && speaksLanguage(voice, attributes.accent ?? language));
  const pool = speaking.length > 0 ? speaking : voices.filter((voice) => voice.available && speaksLanguage(voice, language));
  const region = (attributes.accent ?? (language.includes('-') ? language : DEFAULT_REGION[language.toLowerCase()]) ?? language).toLowerCase();
  const rank = (voice: SpeakingVoice): number[] => [
    voice.language.toLowerCase() === region ? 0 : 1,
    attributes.gender && voice.gender !== attributes.gender ? 1 : 0,
    engineOrder.indexOf(voice.engine) < 0 ? engineOrder.length : engineOrder.indexOf(voice.engine),
  ];
  const compare = (a: number[], b: number[]) => a.reduce((result, value, i) => result || value - b[i]!, 0);
  const sorted = [...pool].sort((a, b) => compare(rank(a), rank(b)) || a.id.localeCompare(b.id));
  const best = sorted.filter((voice) => compare(rank(voice), rank(sorted[0]!)) === 0);
  if (best.length === 0) return undefined;
  return seed === undefined ? best[0] : best[Math.floor(mulberry32(seed)() * best.length)];
}

/** No seed: no variation. A seed: a fixed pseudo-random value in ±amplitude per call, in call order. */
function seededJitter(seed: number | undefined): (amplitude: number) => number {
  if (seed === undefined) return () => 0;
  const random = mulberry32(seed ^ 0x5bd1e995);
  return (amplitude) => (random() * 2 - 1) * amplitude;
}

/** A small, well-distributed 32-bit PRNG: the same seed gives the same sequence everywhere. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
