/**
 * Reading a free-text voice description ("a calm, deep male voice, slow", "eine tiefe männliche
 * Stimme") into attributes a synthesizer can act on, reporting which words were understood and
 * which were not so that callers can tell the user what had no effect.
 */
import { isDeepStrictEqual } from 'node:util';
import { DESCRIPTION_VOCABULARY, type DescribedAttribute, type NumericAttribute, type VocabularyLanguage, type WordsByLanguage } from './voice-vocabulary.js';
import { INTENSIFIERS, NEGATIONS, STOP_WORDS } from './voice-function-words.js';

export { DESCRIPTION_VOCABULARY, type DescribedAttribute };

export interface UnderstoodWord {
  word: string;
  attribute: DescribedAttribute;
  value: string | number;
}

export interface DescribedVoice {
  gender?: 'female' | 'male';
  age?: 'child' | 'young' | 'adult' | 'old';
  /** Steps from the voice's normal: -2 very low … +2 very high. */
  pitch?: number;
  /** -2 very slow … +2 very fast. */
  pace?: number;
  /** -2 very calm/soft … +2 very energetic/loud. */
  energy?: number;
  /** -2 very dark/warm/mellow … +2 very bright/crisp/thin. */
  brightness?: number;
  /** 0 … 2 (breathy, whispery, airy, husky). */
  breathiness?: number;
  /** A BCP-47 tag such as 'en-GB', 'fr-CA' or 'pt-BR'. */
  accent?: string;
  /** Every vocabulary word found, in order of appearance, with the intensifiers and negation before it ("very slow"). */
  understood: UnderstoodWord[];
  /**
   * Content words that are not in the vocabulary (lower-cased, in order, no duplicates), and negated
   * words that have no neutral value to fall back to ("not british"). Stop words are in neither list.
   */
  ignored: string[];
}

type CategoricalAttribute = Exclude<DescribedAttribute, NumericAttribute>;
type Meaning = { attribute: NumericAttribute; step: number } | { attribute: CategoricalAttribute; value: string };
type Entry = { kind: 'meanings'; meanings: Meaning[] } | { kind: 'intensifier'; factor: number } | { kind: 'negation' } | { kind: 'stop' };

const RANGES: Readonly<Record<NumericAttribute, readonly [number, number]>> = {
  pitch: [-2, 2],
  pace: [-2, 2],
  energy: [-2, 2],
  brightness: [-2, 2],
  breathiness: [0, 2],
};

const TOKEN = /[\p{L}\p{M}\p{N}'-]+/gu;
const EDGE_PUNCTUATION = /^['-]+|['-]+$/g;
// Declension endings, so that the table lists "tief" once rather than tiefe, tiefen, tiefer, tiefem, tiefes.
const GERMAN_ENDINGS = ['', 'e', 'en', 'er', 'em', 'es'];

/** Lower-cased words; apostrophes stay inside words ("po'" is trimmed to "po", "d'une" is split below). */
function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const [match] of text.normalize('NFC').toLowerCase().replaceAll('\u2019', "'").matchAll(TOKEN)) {
    const word = match.replace(EDGE_PUNCTUATION, '');
    if (word) words.push(word);
  }
  return words;
}

/** Accents are optional when matching, since descriptions are often typed without them ("rapido", "quebecois"). */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

function keyOf(phrase: string): string {
  return fold(splitWords(phrase).join(' '));
}

const LEXICON = new Map<string, Entry>();

function merge(key: string, existing: Entry, added: Entry): Entry {
  if (existing.kind === 'meanings' && added.kind === 'meanings') {
    const meanings = [...existing.meanings];
    for (const meaning of added.meanings) {
      const sameAttribute = meanings.find((known) => known.attribute === meaning.attribute);
      if (!sameAttribute) meanings.push(meaning);
      else if (!isDeepStrictEqual(sameAttribute, meaning)) throw new Error(`"${key}" has two values for ${meaning.attribute}`);
    }
    if (meanings.length > 1 && !meanings.every((meaning) => meaning.attribute === 'gender' || meaning.attribute === 'age')) {
      throw new Error(`"${key}" sets ${meanings.map((meaning) => meaning.attribute).join(' and ')}; only gender and age may share a word`);
    }
    return { kind: 'meanings', meanings };
  }
  if (isDeepStrictEqual(existing, added)) return existing;
  throw new Error(`"${key}" is listed as both ${existing.kind} and ${added.kind}`);
}

function define(words: WordsByLanguage, entry: Entry): void {
  for (const [language, phrases] of Object.entries(words) as [VocabularyLanguage, readonly string[]][]) {
    for (const phrase of phrases) {
      const forms = language === 'de' && !phrase.includes(' ') ? GERMAN_ENDINGS.map((ending) => phrase.replace(/e$/, '') + ending) : [phrase];
      // Hyphenated phrases are as often written with a space ("middle aged").
      const keys = new Set(forms.flatMap((form) => [keyOf(form), keyOf(form.replaceAll('-', ' '))]));
      for (const key of keys) {
        const existing = LEXICON.get(key);
        LEXICON.set(key, existing ? merge(key, existing, entry) : entry);
      }
    }
  }
}

for (const [attribute, values] of Object.entries(DESCRIPTION_VOCABULARY) as [DescribedAttribute, Record<string, WordsByLanguage>][]) {
  for (const [value, words] of Object.entries(values)) {
    const meaning: Meaning =
      attribute in RANGES ? { attribute: attribute as NumericAttribute, step: Number(value) } : { attribute: attribute as CategoricalAttribute, value };
    define(words, { kind: 'meanings', meanings: [meaning] });
  }
}
for (const [factor, words] of Object.entries(INTENSIFIERS)) define(words, { kind: 'intensifier', factor: Number(factor) });
define(NEGATIONS, { kind: 'negation' });
define(STOP_WORDS, { kind: 'stop' });

const LONGEST_PHRASE = Math.max(...[...LEXICON.keys()].map((key) => key.split(' ').length));

/**
 * The description's words, with elided articles split off ("l'accent" → "l", "accent") and unknown
 * hyphenated compounds split into their parts ("deep-voiced" → "deep", "voiced").
 */
function tokenize(description: string): string[] {
  return splitWords(description).flatMap((word) => {
    const apostrophe = word.indexOf("'");
    if (apostrophe > 0 && LEXICON.get(fold(word.slice(0, apostrophe)))?.kind === 'stop') {
      return [word.slice(0, apostrophe), ...tokenize(word.slice(apostrophe + 1))];
    }
    if (word.includes('-') && !LEXICON.has(fold(word))) return word.split('-').filter(Boolean);
    return [word];
  });
}

/** The longest lexicon phrase starting at `start`, preferring "old man" to "old". */
function match(tokens: readonly string[], start: number): { entry: Entry; end: number } | undefined {
  for (let end = Math.min(tokens.length, start + LONGEST_PHRASE); end > start; end--) {
    const entry = LEXICON.get(fold(tokens.slice(start, end).join(' ')));
    if (entry) return { entry, end };
  }
  return undefined;
}

const clamp = (value: number, [min, max]: readonly [number, number]): number => Math.min(max, Math.max(min, value));

function ignore(voice: DescribedVoice, word: string): void {
  if (!voice.ignored.includes(word)) voice.ignored.push(word);
}

/** Attributes described in `description`, with the words that set them and the words that had no effect. */
export function parseVoiceDescription(description: string): DescribedVoice {
  const tokens = tokenize(description);
  const voice: DescribedVoice = { understood: [], ignored: [] };
  const sums = new Map<NumericAttribute, number>();
  // Intensifiers and negations waiting for the vocabulary word they modify; any other word drops them.
  let modifiersStart: number | undefined;
  let factor = 1;
  let negated = false;

  for (let start = 0; start < tokens.length;) {
    const found = match(tokens, start);
    const end = found?.end ?? start + 1;
    const entry = found?.entry;
    if (entry?.kind === 'intensifier' || entry?.kind === 'negation') {
      modifiersStart ??= start;
      if (entry.kind === 'intensifier') factor *= entry.factor;
      else negated = true;
      start = end;
      continue;
    }
    const word = tokens.slice(modifiersStart ?? start, end).join(' ');
    if (!entry) ignore(voice, tokens[start]!);
    else if (entry.kind === 'meanings') {
      for (const meaning of entry.meanings) {
        if ('step' in meaning) {
          const step = negated ? 0 : clamp(meaning.step * factor, [-2, 2]);
          sums.set(meaning.attribute, (sums.get(meaning.attribute) ?? 0) + step);
          voice.understood.push({ word, attribute: meaning.attribute, value: step });
        } else if (negated) ignore(voice, word);
        else {
          // The vocabulary's keys for gender and age are exactly DescribedVoice's values.
          (voice as Partial<Record<CategoricalAttribute, string>>)[meaning.attribute] = meaning.value;
          voice.understood.push({ word, attribute: meaning.attribute, value: meaning.value });
        }
      }
    }
    modifiersStart = undefined;
    factor = 1;
    negated = false;
    start = end;
  }

  for (const [attribute, sum] of sums) voice[attribute] = clamp(sum, RANGES[attribute]);
  return voice;
}
