/**
 * What OpenAI's names mean here: which engines a model id selects, which installed voice an
 * OpenAI voice name speaks with, and what language a text is spoken in. Pure functions over the
 * voices the library lists, so the mapping is deterministic and testable without engines.
 */
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { ENGINES_BY_CLARITY } from '../../platform/speech/clarity.js';
import { loadLanguageDetector, preferredLanguage } from '../../platform/text/detect-language.js';

export type Gender = 'female' | 'male';

/** The fields of a library voice the mapping reads. */
export interface CatalogVoice {
  id: string;
  engine: EngineId;
  language: string;
  languages: readonly string[];
  gender: Gender | null;
  license: string | null;
}

/**
 * Synthesizers OpenAI's model ids resolve to, clearest first (see clarity.ts). Pocket TTS and
 * ZipVoice speak only with a reference recording, that is as a clone, so they are reached through
 * a clone's voice id.
 */
export const SPEECH_ENGINES = ENGINES_BY_CLARITY;
export const SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;
/** Transcription model ids; each resolves to the best installed recognizer for the language. */
export const TRANSCRIPTION_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'] as const;

/** OpenAI's voices with the gender and accent they are heard as (Fable is British). */
export const OPENAI_VOICES: Readonly<Record<string, { gender: Gender; accent: 'US' | 'GB' }>> = {
  alloy: { gender: 'female', accent: 'US' },
  ash: { gender: 'male', accent: 'US' },
  ballad: { gender: 'male', accent: 'US' },
  coral: { gender: 'female', accent: 'US' },
  echo: { gender: 'male', accent: 'US' },
  fable: { gender: 'male', accent: 'GB' },
  nova: { gender: 'female', accent: 'US' },
  onyx: { gender: 'male', accent: 'US' },
  sage: { gender: 'female', accent: 'US' },
  shimmer: { gender: 'female', accent: 'US' },
  verse: { gender: 'male', accent: 'US' },
  marin: { gender: 'female', accent: 'US' },
  cedar: { gender: 'male', accent: 'US' },
};

export const OPENAI_VOICE_NAMES = Object.keys(OPENAI_VOICES).sort();

const includes = (list: readonly string[], value: string) => list.includes(value);
const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();
const region = (tag: string) => tag.split('-')[1]?.toUpperCase();

export function isOpenAiVoice(name: string): boolean {
  return Object.hasOwn(OPENAI_VOICES, name);
}

/** The synthesizers a speech model id selects, best first; undefined when it names nothing installed. */
export function speechEnginesFor(model: string, installed: ReadonlySet<EngineId>): EngineId[] | undefined {
  const engines = includes(SPEECH_MODELS, model) ? SPEECH_ENGINES.filter((engine) => installed.has(engine)) : [];
  if (engines.length > 0) return engines;
  const named = SPEECH_ENGINES.find((engine) => engine === model);
  return named && installed.has(named) ? [named] : undefined;
}

/** The speech model ids that resolve here: the OpenAI ids when any synthesizer is installed, then each installed one. */
export function speechModelIds(installed: ReadonlySet<EngineId>): string[] {
  const engines = SPEECH_ENGINES.filter((engine) => installed.has(engine));
  return engines.length > 0 ? [...SPEECH_MODELS, ...engines] : [];
}

/** The recognizer a transcription model id selects: null for the best installed one, undefined when it names nothing installed. */
export function recognizerFor(model: string, installed: readonly EngineId[]): EngineId | null | undefined {
  if (installed.length === 0) return undefined;
  if (includes(TRANSCRIPTION_MODELS, model)) return null;
  return installed.find((engine) => engine === model);
}

export function transcriptionModelIds(installed: readonly string[]): string[] {
  return installed.length > 0 ? [...TRANSCRIPTION_MODELS, ...installed] : [];
}

function speaks(voice: CatalogVoice, language: string): boolean {
  const wanted = primary(language);
  return [voice.language, ...voice.languages].some((tag) => primary(tag) === wanted);
}

/**
 * The language to speak `input` in, among `languages` (the voices' languages): `preferred` when
 * offered (else the first offered), unless the text is confidently in another of them (see
 * `preferredLanguage`: a few words never are). Primary subtags.
 */
export async function speechLanguage(input: string, languages: readonly string[], preferred: string): Promise<string> {
  const offered = [...new Set(languages.map(primary))];
  const fallback = offered.includes(primary(preferred)) ? primary(preferred) : (offered[0] ?? primary(preferred));
  if (offered.length <= 1 || input.trim() === '') return fallback;
  await loadLanguageDetector();
  return preferredLanguage(input, { preferred: fallback, candidates: offered });
}

/** Licenses that forbid commercial use (RHVoice's evgeniy-eng and lyubov, MBROLA's databases). */
const NON_COMMERCIAL = /\bNC\b|-NC-|non-commercial/i;

/**
 * The installed voice an OpenAI voice name speaks with, in `language`: from the first engine (in
 * `engines` order) that has a voice of the name's gender in that language, else from the first that
 * speaks it at all; among those, the name's accent for English, then a voice named like it (Kokoro's
 * `am_onyx`), else the voices sorted by id and dealt out to the names of that gender in turn. An
 * application that asks for `alloy` cannot be expected to read licenses: voices whose license
 * forbids commercial use are left out while any other speaks the language.
 */
export function mapOpenAiVoice<V extends CatalogVoice>(name: string, voices: readonly V[], engines: readonly EngineId[], language: string): V | undefined {
  const wanted = OPENAI_VOICES[name];
  if (!wanted) return undefined;
  const inLanguage = voices.filter((voice) => speaks(voice, language));
  const free = inLanguage.filter((voice) => !NON_COMMERCIAL.test(voice.license ?? ''));
  const speaking = free.length > 0 ? free : inLanguage;
  const of = (engine: EngineId) => speaking.filter((voice) => voice.engine === engine);
  const engine = engines.find((id) => of(id).some((voice) => voice.gender === wanted.gender)) ?? engines.find((id) => of(id).length > 0);
  if (!engine) return undefined;
  const all = of(engine);
  const gendered = all.filter((voice) => voice.gender === wanted.gender);
  const byGender = gendered.length > 0 ? gendered : all;
  const accented = primary(language) === 'en' ? byGender.filter((voice) => region(voice.language) === wanted.accent) : [];
  const pool = (accented.length > 0 ? accented : byGender).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const named = pool.find((voice) => voice.id.split(/[:_]/).includes(name));
  if (named) return named;
  const siblings = OPENAI_VOICE_NAMES.filter((other) => OPENAI_VOICES[other]?.gender === wanted.gender);
  return pool[siblings.indexOf(name) % pool.length];
}

/** English name of a language, lower-case as Whisper reports it (`en` → `english`); the tag itself when unknown. */
export function englishLanguageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(primary(tag));
    return name ? name.toLowerCase() : tag;
  } catch {
    return tag;
  }
}
