/**
 * Text normalisation before synthesis: the synthesizers read digits, symbols and abbreviations
 * inconsistently (or spell them out), so Timbre turns them into words first, per language.
 *
 * Every language gets the same clean-up: NFC (so "é" is one character whichever way it was typed),
 * invisible characters removed, control characters read as spaces, whitespace collapsed. Sentence punctuation stays: synthesizers use
 * it for pauses and intonation.
 *
 * Adding a language: write `(text: string) => string` for it (a `numbers-xx.ts` with
 * `cardinalXx(n, beforeNoun?)` and a `basicNumberRules` entry is enough for numbers and percent;
 * a `rules-xx.ts` like `rules-en.ts` for dates, money and abbreviations) and add it to
 * LANGUAGE_RULES under its primary language subtag. Languages not in the table get only the
 * clean-up, and the synthesizer reads their digits itself.
 */
import { cardinalDe } from './numbers-de.js';
import { cardinalEs } from './numbers-es.js';
import { cardinalFr } from './numbers-fr.js';
import { normalizeEnglish } from './rules-en.js';

export type LanguageRules = (text: string) => string;

interface NumberWords {
  /** 0..max in words; `beforeNoun` for the form used before "percent" (German "ein", Spanish "un"). */
  cardinal: (n: number, beforeNoun?: boolean) => string;
  max: number;
  minus: string;
  /** The word for the decimal comma. */
  comma: string;
  percent: string;
  /** Regular-expression source of the thousands separator. */
  group: string;
}

/**
 * Numbers and percentages for languages that write a decimal comma: "-3,5 %" → minus, digits,
 * comma word, digits one by one, percent word. Numbers past `max` stay digits.
 */
function basicNumberRules(words: NumberWords): LanguageRules {
  const number = new RegExp(String.raw`(?<![\p{L}\p{N}.,])([-−]?)(\d{1,3}(?:${words.group}\d{3})+|\d+)(?:,(\d+))?(\s?%)?(?!\p{N})`, 'gu');
  const digits = (text: string) => [...text].map((digit) => words.cardinal(Number(digit))).join(' ');
  return (text) =>
    text.replace(number, (match, sign: string, whole: string, fraction?: string, percent?: string) => {
      const plain = whole.replace(/\D/g, '');
      const value = Number(plain);
      if (value > words.max) return match;
      // Leading zeros are a code ("007"), read digit by digit.
      const integer = plain.length > 1 && plain.startsWith('0') ? digits(plain) : words.cardinal(value, Boolean(percent) && !fraction);
      const spoken = (sign ? `${words.minus} ` : '') + integer + (fraction ? ` ${words.comma} ${digits(fraction)}` : '');
      return percent ? `${spoken} ${words.percent}` : spoken;
    });
}

/**
 * The rules per language, keyed by primary language subtag (`de` serves `de-DE`, `de-AT`, …).
 * This table is the one place to add a language.
 */
const LANGUAGE_RULES: Record<string, LanguageRules> = {
  en: normalizeEnglish,
  de: basicNumberRules({ cardinal: cardinalDe, max: 999_999, minus: 'minus', comma: 'Komma', percent: 'Prozent', group: '\\.' }),
  // French groups thousands with a (narrow) no-break space, as Intl.NumberFormat('fr') writes them.
  fr: basicNumberRules({ cardinal: cardinalFr, max: 999_999, minus: 'moins', comma: 'virgule', percent: 'pour cent', group: '[\\u00A0\\u202F]' }),
  es: basicNumberRules({ cardinal: cardinalEs, max: 999_999, minus: 'menos', comma: 'coma', percent: 'por ciento', group: '\\.' }),
};

/** Languages with rules beyond the clean-up (primary subtags). */
export const NORMALIZED_LANGUAGES: readonly string[] = Object.keys(LANGUAGE_RULES);

const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
/** Control characters other than whitespace (NUL, escape, C1 codes): no engine reads them, some programs refuse them. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g;
const ANY_SPACE = /\s+/g;
// No-break spaces are kept until the rules have run: French uses them inside numbers.
const BREAKING_SPACE = /[^\S\u00A0\u202F]+/g;

/** A run of whitespace becomes one space, or one line break when it holds one (paragraphs pause). */
function collapseWhitespace(text: string, runs: RegExp): string {
  return text.replace(runs, (run) => (run.includes('\n') ? '\n' : ' ')).trim();
}

/**
 * `text` with numbers, symbols and abbreviations as words for `language` (BCP 47: `en`, `en-US`,
 * `de-DE`), NFC-normalised and with whitespace collapsed. Unknown languages get only the clean-up.
 */
export function normalizeText(text: string, language: string): string {
  const cleaned = collapseWhitespace(text.normalize('NFC').replace(INVISIBLE, '').replace(CONTROL, ' '), BREAKING_SPACE);
  const rules = LANGUAGE_RULES[language.split(/[-_]/)[0]!.toLowerCase()];
  return collapseWhitespace(rules ? rules(cleaned) : cleaned, ANY_SPACE);
}
