/**
 * English text normalisation: digits, symbols and abbreviations become the words a reader would
 * say, because Pico, eSpeak NG, Festival, Flite and the neural engines each read them differently
 * (or not at all). The rules run in the order of ENGLISH_RULES; each one consumes what it
 * recognises, so the specific shapes (an address, an amount, a date, a time) go before the
 * general ones (a bare number).
 */
import { cardinalEn, numberEn, ordinalEn, yearEn } from './numbers-en.js';

type Rule = (text: string) => string;

/** A number as written in English text: "7", "1,234,567", "3.14". */
const NUM = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH = `(${MONTHS.join('|')})`;

/** Replaces every match, telling the replacer where the match ends (for looking ahead). */
function replaceIn(text: string, pattern: RegExp, replace: (match: RegExpMatchArray, end: number) => string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    result += text.slice(last, match.index) + replace(match, end);
    last = end;
  }
  return result + text.slice(last);
}

const SENTENCE_END = /\s*$|\s+\p{Lu}/uy;
/** Whether the text ends at `at` or a capitalised word follows: a period there ends a sentence. */
function endsSentence(text: string, at: number): boolean {
  SENTENCE_END.lastIndex = at;
  return SENTENCE_END.test(text);
}

const TEXT_END = /\s*$/y;
function endsText(text: string, at: number): boolean {
  TEXT_END.lastIndex = at;
  return TEXT_END.test(text);
}

const CAPITALISED_WORD = /\s+\p{Lu}/uy;
function capitalisedWordAt(text: string, at: number): boolean {
  CAPITALISED_WORD.lastIndex = at;
  return CAPITALISED_WORD.test(text);
}

// --- Emails and web addresses -------------------------------------------------------------------

const ADDRESS_SYMBOLS: Record<string, string> = {
  '.': 'dot',
  '/': 'slash',
  ':': 'colon',
  _: 'underscore',
  '-': 'dash',
  '?': 'question mark',
  '=': 'equals',
  '&': 'and',
  '#': 'hash',
  '@': 'at',
  '~': 'tilde',
  '%': 'percent',
  '+': 'plus',
};
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
// Ends on a character that cannot be sentence punctuation, so "see example.com." keeps its period.
const URL = /(?<![\p{L}\p{N}@.])(?:https?:\/\/|www\.)[^\s<>"]*[^\s<>".,;:!?)\]'"]/giu;
const BARE_DOMAIN =
  /(?<![\p{L}\p{N}@./-])[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:com|org|net|io|dev|edu|gov)(?:\/[^\s<>"]*[^\s<>".,;:!?)\]'"])?(?![\p{L}\p{N}])/gu;

/** "https://www.example.com/a-b" → "www dot example dot com slash a dash b"; the scheme is not said. */
function speakAddress(address: string): string {
  return address.replace(/^https?:\/\//i, '').replace(/[./:_\-?=&#@~%+]/g, (symbol) => ` ${ADDRESS_SYMBOLS[symbol]} `);
}

// --- Abbreviations ------------------------------------------------------------------------------

/** Followed by a name or an example, so their period ends a sentence only at the end of the text. */
const TITLES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<!\p{L})Dr\./gu, 'Doctor'],
  [/(?<!\p{L})Mr\./gu, 'Mister'],
  [/(?<!\p{L})Mrs\./gu, 'Missus'],
  [/(?<!\p{L})Ms\./gu, 'Miz'],
  [/(?<!\p{L})Prof\./gu, 'Professor'],
  [/(?<!\p{L})e\.\s?g\.(?!\p{L})/giu, 'for example'],
  [/(?<!\p{L})i\.\s?e\.(?!\p{L})/giu, 'that is'],
  [/(?<!\p{L})[Vv]s\.?(?!\p{L})/gu, 'versus'],
];
/** May close a sentence ("… and so on, etc."): then the period stays, for the pause. */
const FINAL_ABBREVIATIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<!\p{L})etc\.(?!\p{L})/giu, 'et cetera'],
  [/(?<!\p{L})approx\.(?!\p{L})/giu, 'approximately'],
  [/(?<!\p{L})Jr\.(?!\p{L})/gu, 'Junior'],
  [/(?<!\p{L})Sr\.(?!\p{L})/gu, 'Senior'],
];
const SAINT_OR_STREET = /(?<!\p{L})St\.(?!\p{L})/gu;

function expandAbbreviations(text: string): string {
  let result = text.replace(/(?<!\p{L})No\.\s?(?=\d)|#\s?(?=\d)/gu, 'number ');
  for (const [pattern, words] of TITLES) {
    result = replaceIn(result, pattern, (_, end) => words + (endsText(result, end) ? '.' : ''));
  }
  for (const [pattern, words] of FINAL_ABBREVIATIONS) {
    result = replaceIn(result, pattern, (_, end) => words + (endsSentence(result, end) ? '.' : ''));
  }
  // Kept simple: "St." before a capitalised word is Saint (St. Louis), anywhere else Street.
  return replaceIn(result, SAINT_OR_STREET, (_, end) => (capitalisedWordAt(result, end) ? 'Saint' : `Street${endsSentence(result, end) ? '.' : ''}`));
}

// --- Money, percentages and units ---------------------------------------------------------------

interface Currency {
  one: string;
  many: string;
  minor?: readonly [string, string];
}
const CURRENCIES: Record<string, Currency> = {
  $: { one: 'dollar', many: 'dollars', minor: ['cent', 'cents'] },
  '€': { one: 'euro', many: 'euros', minor: ['cent', 'cents'] },
  '£': { one: 'pound', many: 'pounds', minor: ['penny', 'pence'] },
  '¥': { one: 'yen', many: 'yen' },
};
const SCALE_WORDS: Record<string, string> = {
  thousand: 'thousand',
  million: 'million',
  billion: 'billion',
  trillion: 'trillion',
  k: 'thousand',
  m: 'million',
  bn: 'billion',
};
const MONEY_BEFORE = new RegExp(String.raw`([-−]?)([$€£¥])\s?(${NUM})(?:\s?(thousand|million|billion|trillion|k|m|bn)(?![\p{L}\p{N}]))?`, 'giu');
const MONEY_AFTER = new RegExp(String.raw`(?<![\d.,])([-−]?)(${NUM})\s?([€£¥])`, 'gu');

/** "$3.50" → "three dollars and fifty cents"; "$1.2 million" → "one point two million dollars". */
function sayMoney(sign: string, symbol: string, amount: string, scale?: string): string {
  const currency = CURRENCIES[symbol]!;
  const minus = sign ? 'minus ' : '';
  if (scale) return `${minus}${numberEn(amount)} ${SCALE_WORDS[scale.toLowerCase()]} ${currency.many}`;
  const [whole = '', fraction = ''] = amount.split('.');
  // Three decimals, or a currency without cents, is a plain decimal amount.
  if (fraction.length > 2 || (fraction && !currency.minor)) return `${minus}${numberEn(amount)} ${currency.many}`;
  const units = Number(whole.replace(/,/g, ''));
  const cents = Number(fraction.padEnd(2, '0'));
  const parts: string[] = [];
  if (units || !cents) parts.push(`${numberEn(whole)} ${units === 1 ? currency.one : currency.many}`);
  if (cents) parts.push(`${cardinalEn(cents)} ${currency.minor![cents === 1 ? 0 : 1]}`);
  return minus + parts.join(' and ');
}

const UNITS: Record<string, readonly [string, string]> = {
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  mph: ['mile per hour', 'miles per hour'],
  km: ['kilometer', 'kilometers'],
  kg: ['kilogram', 'kilograms'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  m: ['meter', 'meters'],
  g: ['gram', 'grams'],
  '°C': ['degree Celsius', 'degrees Celsius'],
  '°F': ['degree Fahrenheit', 'degrees Fahrenheit'],
  '°': ['degree', 'degrees'],
};
// Longest first, so "km/h" is not read as "km" and "mm" not as "m".
const UNIT = new RegExp(
  String.raw`(?<![\d.,])(${NUM})\s?(${Object.keys(UNITS)
    .map((unit) => unit.replace('/', '\\/'))
    .join('|')})(?![\p{L}\p{N}])`,
  'gu',
);

/** Only the unit or "%" becomes words here; the number stays digits for the later rules (ranges). */
function expandUnits(text: string): string {
  return text.replace(/(\d)\s?%/g, '$1 percent').replace(UNIT, (_, number: string, unit: string) => `${number} ${UNITS[unit]![number === '1' ? 0 : 1]}`);
}

// --- Dates, years and times ---------------------------------------------------------------------

const ISO_DATE = /(?<![\d-])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\d-])/g;
const MONTH_DAY = new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?(?![.,]?\d)(?:,?\s+(\d{4})(?!\d))?`, 'g');
const DAY_MONTH = new RegExp(String.raw`(?<![\d.,])(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\b(?:,?\s+(\d{4})(?!\d))?`, 'g');

function sayDate(text: string): string {
  const withYear = (year: string | undefined) => (year ? `, ${yearEn(Number(year))}` : '');
  const validDay = (day: string) => Number(day) >= 1 && Number(day) <= 31;
  return text
    .replace(ISO_DATE, (_, year: string, month: string, day: string) => `${MONTHS[Number(month) - 1]} ${ordinalEn(Number(day))}${withYear(year)}`)
    .replace(MONTH_DAY, (match, month: string, day: string, year?: string) => (validDay(day) ? `${month} ${ordinalEn(Number(day))}${withYear(year)}` : match))
    .replace(DAY_MONTH, (match, day: string, month: string, year?: string) =>
      validDay(day) ? `the ${ordinalEn(Number(day))} of ${month}${withYear(year)}` : match,
    );
}

const DECADE = /(?<![\d.,])'?(\d{3}0|[1-9]0)s\b/g;
// A four-digit number after one of these words is a year: "in 1999", "since 2005".
const YEAR_CONTEXT = /\b(in|since|by|until|till|from|to|during|circa|year|before|after|around|of)(\s+)(\d{4})(?![\d,.:]\d)/gi;

/** "1990s" → "nineteen nineties", "'80s" → "eighties"; "in 2024" → "in twenty twenty-four". */
function sayYears(text: string): string {
  return text
    .replace(DECADE, (_, year: string) => yearEn(Number(year)).replace(/y$/, 'ie') + 's')
    .replace(YEAR_CONTEXT, (_, word: string, space: string, year: string) => `${word}${space}${yearEn(Number(year))}`);
}

const CLOCK = /(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\d:])(?:\s?([ap])\.?m(\.)?(?!\p{L}))?/giu;
const HOUR_ONLY = /(?<![\d:.,])(1[0-2]|0?[1-9])\s?([ap])\.?m(\.)?(?!\p{L})/giu;

/** "9:05" → "nine oh five"; a full hour is "o'clock" unless "a m" / "p m" follows. */
function sayClock(hour: string, minute: string, second: string | undefined, hasSuffix: boolean): string {
  const minutes = Number(minute);
  const spokenMinutes = minutes === 0 ? (hasSuffix ? '' : " o'clock") : `${minutes < 10 ? ' oh' : ''} ${cardinalEn(minutes)}`;
  const seconds = second ? ` and ${cardinalEn(Number(second))} second${second === '01' ? '' : 's'}` : '';
  return cardinalEn(Number(hour)) + spokenMinutes + seconds;
}

function sayTimes(text: string): string {
  // "a.m." that closes a sentence keeps its period for the pause.
  const suffix = (letter: string | undefined, dot: string | undefined, source: string, end: number) =>
    letter ? ` ${letter.toLowerCase()} m${dot && endsSentence(source, end) ? '.' : ''}` : '';
  const clocked = replaceIn(
    text,
    CLOCK,
    ([, hour, minute, second, letter, dot], end) => sayClock(hour!, minute!, second, Boolean(letter)) + suffix(letter, dot, text, end),
  );
  return replaceIn(clocked, HOUR_ONLY, ([, hour, letter, dot], end) => cardinalEn(Number(hour)) + suffix(letter, dot, clocked, end));
}

// --- Numbers and symbols ------------------------------------------------------------------------

const ORDINAL = /(?<![\d.,])(\d{1,3}(?:,\d{3}){1,4}|\d{1,15})(st|nd|rd|th)(?!\p{L})/giu;
const RANGE = new RegExp(String.raw`(?<![\d.,:-])(${NUM})(?:-|\s?–\s?)(${NUM})(?![\d-]|[.,]\d)`, 'g');
const LIKELY_YEAR = /^(1[1-9]|20)\d\d$/;
// The end of a range of years may be written short: "1990-95".
const YEAR_END = /^(1[1-9]|20)?\d\d$/;

/** "10-20" → "ten to twenty"; two years ("1990-1995") are read as years. */
function sayRanges(text: string): string {
  return text.replace(RANGE, (_, from: string, to: string) => {
    const say = LIKELY_YEAR.test(from) && YEAR_END.test(to) ? (year: string) => yearEn(Number(year)) : numberEn;
    return `${say(from)} to ${say(to)}`;
  });
}

function saySymbols(text: string): string {
  return text.replace(/&/g, ' and ').replace(/(\d)\s?\+\s?(?=\d)/g, '$1 plus ');
}

/** What is left: signs, version-like dotted numbers, digits glued to letters, plain numbers. */
function sayNumbers(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}])[-−](?=\d)/gu, 'minus ')
    .replace(/\d+(?:\.\d+){2,}/g, (dotted) => dotted.split('.').map(numberEn).join(' dot '))
    .replace(/(?<=\p{L})(?=\d)|(?<=\d)(?=\p{L})/gu, ' ')
    .replace(new RegExp(`(?<!\\d)${NUM}`, 'g'), numberEn);
}

/** The English rules, in the order they run. */
export const ENGLISH_RULES: ReadonlyArray<readonly [name: string, rule: Rule]> = [
  ['emails', (text) => text.replace(EMAIL, speakAddress)],
  ['web addresses', (text) => text.replace(URL, speakAddress).replace(BARE_DOMAIN, speakAddress)],
  ['abbreviations', expandAbbreviations],
  [
    'currencies',
    (text) =>
      text
        .replace(MONEY_BEFORE, (_, sign: string, symbol: string, amount: string, scale?: string) => sayMoney(sign, symbol, amount, scale))
        .replace(MONEY_AFTER, (_, sign: string, amount: string, symbol: string) => sayMoney(sign, symbol, amount)),
  ],
  ['dates', sayDate],
  ['times', sayTimes],
  ['percent and units', expandUnits],
  ['ranges', sayRanges],
  ['decades and years', sayYears],
  ['ordinals', (text) => text.replace(ORDINAL, (_, number: string) => ordinalEn(Number(number.replace(/,/g, ''))))],
  ['symbols', saySymbols],
  ['numbers', sayNumbers],
];

export function normalizeEnglish(text: string): string {
  return ENGLISH_RULES.reduce((result, [, rule]) => rule(result), text);
}
