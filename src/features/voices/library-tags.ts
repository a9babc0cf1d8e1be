import { isNeuralEngineId } from '../../platform/engines/engine-ids.js';
import type { Gender } from '../../platform/engines/types.js';
import { brightnessTag, pitchTag } from './measured-tags.js';
import type { VoiceSettings, VoiceType } from './voice-rows.js';

/**
 * What the library says of a voice, derived on every read from what is known for real (the engine,
 * the language tag, the gender the engine states, the intelligibility measured for a clone or
 * design, the pitch and brightness measured of its current sample), never stored: they cannot drift from the code and never touch the tags a user set.
 */

/** Engines that speak by formant or diphone synthesis (eSpeak NG, with or without MBROLA): intelligible, plainly machine-like. */
const ROBOTIC_ENGINES: readonly string[] = ['espeak'];

/**
 * Presets whose word error rate was measured at most 0.1 (the cloning intelligibility margin) on the
 * bench's probe sentences: RHVoice's voices (0–0.05, against Pico's 0.23; docs/cloning.md).
 */
const MEASURED_CLEAR_ENGINES: readonly string[] = ['rhvoice'];

/** A clone or design is clear when its measured word accuracy (1 − word error rate) is at least this: the same 0.1 margin. */
export const CLEAR_WORD_ACCURACY = 0.9;

/** The built-in categories, one per kind of voice; a voice is in exactly one, beside any category its user gave it. */
export const LIBRARY_CATEGORIES = {
  neural: 'Natural (neural)',
  classic: 'Classic',
  robotic: 'Robotic',
  clone: 'Cloned',
  design: 'Designed',
} as const;

export type LibraryCategoryKey = keyof typeof LIBRARY_CATEGORIES;

/** Accent words of a language tag's region, as a creator searches for them. */
const REGION_ACCENTS: Readonly<Record<string, string>> = {
  GB: 'british',
  US: 'american',
  AU: 'australian',
  CA: 'canadian',
  IE: 'irish',
  IN: 'indian',
  NZ: 'new-zealand',
  ZA: 'south-african',
  SCOTLAND: 'scottish',
  JM: 'jamaican',
  AT: 'austrian',
  CH: 'swiss',
  BE: 'belgian',
  FR: 'french',
  DE: 'german',
  MX: 'mexican',
  ES: 'castilian',
  BR: 'brazilian',
  PT: 'european-portuguese',
  CN: 'mainland-chinese',
  TW: 'taiwanese',
};

/** What the library reads of a voice (a record, or the columns of a row). */
export interface LibraryVoice {
  type: VoiceType;
  engine: string;
  language: string;
  gender: Gender | null;
  settings: VoiceSettings;
  /** Measured of the voice's current sample (sample-measures.ts); null when not measured. */
  medianF0Hz: number | null;
  centroidHz: number | null;
}

export function libraryCategoryKey(voice: Pick<LibraryVoice, 'type' | 'engine'>): LibraryCategoryKey {
  if (voice.type !== 'preset') return voice.type;
  if (isNeuralEngineId(voice.engine)) return 'neural';
  return ROBOTIC_ENGINES.includes(voice.engine) ? 'robotic' : 'classic';
}

export function libraryCategory(voice: Pick<LibraryVoice, 'type' | 'engine'>): string {
  return LIBRARY_CATEGORIES[libraryCategoryKey(voice)];
}

/** Whether the voice was measured intelligible: by its engine's measured presets, or by its own measure. */
export function isMeasuredClear(voice: LibraryVoice): boolean {
  if (voice.type === 'preset') return MEASURED_CLEAR_ENGINES.includes(voice.engine);
  const accuracy = voice.settings.intelligibility;
  const warned = (voice.settings.warnings ?? []).some((warning) => warning.code === 'low_intelligibility');
  return typeof accuracy === 'number' && accuracy >= CLEAR_WORD_ACCURACY && !warned;
}

/** The accent word of a tag's region subtags (`en-GB` → british, `en-GB-scotland` → scottish, the most specific first). */
function accentOf(language: string): string | undefined {
  const subtags = language.split('-').slice(1).reverse();
  return subtags.map((subtag) => REGION_ACCENTS[subtag.toUpperCase()]).find((accent) => accent !== undefined);
}

/** The library's tags of a voice: engine family, `clear` where measured, accent, gender, then measured pitch and brightness. */
export function libraryTags(voice: LibraryVoice): string[] {
  const family = libraryCategoryKey(voice);
  const tags: (string | undefined)[] = [
    family === 'clone' || family === 'design' ? family : undefined,
    family === 'neural' || family === 'classic' || family === 'robotic' ? family : undefined,
    isMeasuredClear(voice) ? 'clear' : undefined,
    accentOf(voice.language),
    voice.gender ?? undefined,
    pitchTag(voice.medianF0Hz, voice.gender),
    brightnessTag(voice.centroidHz),
  ];
  return tags.filter((tag) => tag !== undefined);
}
