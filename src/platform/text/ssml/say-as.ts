/**
 * `<say-as interpret-as>`: the words for a number, date, time, code or phone number, so the
 * engine cannot guess a different reading. Languages with number readers (numbers-xx.ts) get
 * words; for the others digits stay digits, read by the engine (see docs/ssml.md).
 */
import { primaryLanguage } from '../language-tag.js';
import { cardinalDe } from '../numbers-de.js';
import { cardinalEn, numberEn, ordinalEn, yearEn } from '../numbers-en.js';
import { cardinalEs } from '../numbers-es.js';
import { cardinalFr } from '../numbers-fr.js';
import { SsmlValueError } from './ssml-error.js';

/** Integer readers by primary language, and the largest number each reads. */
const CARDINALS: Record<string, { read: (n: number) => string; max: number }> = {
  en: { read: cardinalEn, max: 1e15 - 1 },
  de: { read: cardinalDe, max: 999_999 },
  es: { read: cardinalEs, max: 999_999 },
  fr: { read: cardinalFr, max: 999_999 },
};
const MINUS: Record<string, string> = { en: 'minus', de: 'minus', es: 'menos', fr: 'moins' };
const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const INTERPRETATIONS = ['characters', 'spell-out', 'cardinal', 'number', 'ordinal', 'digits', 'date', 'time', 'telephone'] as const;
export const DATE_FORMATS = ['mdy', 'dmy', 'ymd', 'md', 'dm', 'ym', 'my', 'y', 'm', 'd'] as const;

function unreadable(interpretAs: string, content: string, expected: string): SsmlValueError {
  return new SsmlValueError(`"${content}" is not ${expected} (interpret-as="${interpretAs}")`, { attribute: 'interpret-as', value: interpretAs, content });
}

/** Digits one by one, as words where the language has a reader. */
function digitByDigit(digits: string, language: string): string {
  const cardinal = CARDINALS[primaryLanguage(language)];
  return [...digits].map((digit) => (cardinal ? cardinal.read(Number(digit)) : digit)).join(' ');
}

/** An integer ("1234", "-7", "1,234" or "1.234" with the language's grouping) in words; a number it cannot read stays as written. */
function cardinal(content: string, language: string): string {
  const match = /^([+\-−]?)(\d[\d.,\s\u00A0\u202F]*)$/.exec(content);
  if (!match || /[.,\s\u00A0\u202F]$/.test(match[2]!)) throw unreadable('cardinal', content, 'a number');
  const primary = primaryLanguage(language);
  const reader = CARDINALS[primary];
  const negative = match[1] !== '' && match[1] !== '+';
  const written = match[2]!;
  let words: string | undefined;
  if (primary === 'en' && /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(written)) words = numberEn(written);
  else if (reader && /^(?:\d{1,3}(?:[.\s\u00A0\u202F]\d{3})+|\d+)$/.test(written)) {
    const value = Number(written.replace(/\D/g, ''));
    if (value <= reader.max) words = reader.read(value);
  }
  if (words === undefined) return content;
  return negative ? `${MINUS[primary]} ${words}` : words;
}

/** "3", "3rd", "3." → "third" in English; other languages keep the written ordinal for the engine. */
function ordinal(content: string, language: string): string {
  const match = /^(\d+)(?:st|nd|rd|th|\.|º|ª|e|er|re|ème)?$/i.exec(content);
  if (!match) throw unreadable('ordinal', content, 'an ordinal number');
  return primaryLanguage(language) === 'en' ? ordinalEn(Number(match[1])) : content;
}

function daysIn(month: number, year: number | undefined): number {
  return month === 2 ? (year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

interface DateParts {
  year?: number;
  month?: number;
  day?: number;
}

function dateParts(content: string, format: string): DateParts {
  const fields = content.split(/[-/.\s]+/);
  if (fields.length !== format.length || !fields.every((field) => /^\d{1,4}$/.test(field))) throw unreadable('date', content, `a date written as ${format}`);
  const parts: DateParts = {};
  [...format].forEach((letter, index) => {
    const value = Number(fields[index]);
    if (letter === 'y') parts.year = value;
    else if (letter === 'm') parts.month = value;
    else parts.day = value;
  });
  const badMonth = parts.month !== undefined && (parts.month < 1 || parts.month > 12);
  const badDay = parts.day !== undefined && (parts.day < 1 || parts.day > daysIn(parts.month ?? 1, parts.year));
  if (badMonth || badDay) throw unreadable('date', content, `a date written as ${format}`);
  return parts;
}

/** American English says "January fifth, twenty twenty-four"; other English "the fifth of January twenty twenty-four". */
function dateEnglish({ year, month, day }: DateParts, american: boolean): string {
  const monthName = month === undefined ? undefined : MONTHS_EN[month - 1];
  const dayWords = day === undefined ? undefined : ordinalEn(day);
  let dayAndMonth: string | undefined;
  if (monthName && dayWords) dayAndMonth = american ? `${monthName} ${dayWords}` : `the ${dayWords} of ${monthName}`;
  else dayAndMonth = monthName ?? (dayWords ? `the ${dayWords}` : undefined);
  if (year === undefined) return dayAndMonth ?? '';
  if (!dayAndMonth) return yearEn(year);
  return `${dayAndMonth}${american && dayWords ? ',' : ''} ${yearEn(year)}`;
}

/** Other languages: the date as the language writes it in full (Intl), whose numbers the text normalisation or the engine reads. */
function dateWritten({ year, month, day }: DateParts, language: string): string {
  const date = new Date(Date.UTC(year ?? 2000, (month ?? 1) - 1, day ?? 1));
  if (year !== undefined) date.setUTCFullYear(year);
  const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC' };
  if (year !== undefined) options.year = 'numeric';
  if (month !== undefined) options.month = 'long';
  if (day !== undefined) options.day = 'numeric';
  return new Intl.DateTimeFormat(language, options).format(date);
}

function date(content: string, format: string | undefined, language: string): string {
  const american = /^en(?:-US)?$/i.test(language);
  const order = format ?? (american ? 'mdy' : 'dmy');
  if (!(DATE_FORMATS as readonly string[]).includes(order))
    throw new SsmlValueError(`format="${order}" is not a date format (${DATE_FORMATS.join(', ')})`, { attribute: 'format', value: order });
  const parts = dateParts(content, order);
  return primaryLanguage(language) === 'en' ? dateEnglish(parts, american) : dateWritten(parts, language);
}

/** "15:30" → "fifteen thirty", "3:00 pm" → "three o'clock p m" in English; other languages keep the checked time for the engine. */
function time(content: string, format: string | undefined, language: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([ap])\.?\s?m\.?)?$/i.exec(content);
  const twelve = format === undefined ? Boolean(match?.[4]) : format === 'hms12';
  if (format !== undefined && format !== 'hms12' && format !== 'hms24')
    throw new SsmlValueError(`format="${format}" is not a time format (hms12, hms24)`, { attribute: 'format', value: format });
  if (!match) throw unreadable('time', content, 'a time such as 15:30 or 3:30 pm');
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), match[3] === undefined ? undefined : Number(match[3])];
  const hourOk = twelve ? hour >= 1 && hour <= 12 : hour <= 23 && !match[4];
  if (!hourOk || minute > 59 || (second ?? 0) > 59) throw unreadable('time', content, `a valid ${twelve ? '12' : '24'}-hour time`);
  if (primaryLanguage(language) !== 'en') return content;
  const minutes = minute === 0 ? (twelve ? "o'clock" : 'hundred') : minute < 10 ? `oh ${cardinalEn(minute)}` : cardinalEn(minute);
  const seconds = second === undefined || second === 0 ? '' : ` and ${cardinalEn(second)} second${second === 1 ? '' : 's'}`;
  const meridiem = match[4] ? ` ${match[4].toLowerCase()} m` : '';
  return `${cardinalEn(hour)} ${minutes}${seconds}${meridiem}`;
}

/** Digits in the groups they are written in, groups separated by commas so every engine pauses between them. */
function telephone(content: string, language: string): string {
  if (!/^\+?[\d\s().-]+$/.test(content) || !/\d/.test(content)) throw unreadable('telephone', content, 'a telephone number');
  const groups = content.split(/\D+/).filter(Boolean);
  const plus = content.startsWith('+') ? (primaryLanguage(language) === 'en' ? 'plus ' : '+') : '';
  return plus + groups.map((group) => digitByDigit(group, language)).join(', ');
}

/** The words for `content` read as `interpretAs`, in `language` (BCP 47). */
export function sayAs(interpretAs: string, format: string | undefined, content: string, language: string): string {
  const text = content.replace(/\s+/g, ' ').trim();
  switch (interpretAs) {
    case 'characters':
    case 'spell-out':
      if (!text) throw unreadable(interpretAs, content, 'anything to spell');
      return [...text.replace(/\s/g, '')].join(' ');
    case 'cardinal':
    case 'number':
      return cardinal(text, language);
    case 'ordinal':
      return ordinal(text, language);
    case 'digits':
      if (!/^\d[\d\s-]*$/.test(text)) throw unreadable(interpretAs, content, 'digits');
      return digitByDigit(text.replace(/\D/g, ''), language);
    case 'date':
      return date(text, format, language);
    case 'time':
      return time(text, format, language);
    case 'telephone':
      return telephone(text, language);
    default:
      throw new SsmlValueError(`interpret-as="${interpretAs}" is not supported (${INTERPRETATIONS.join(', ')})`, {
        attribute: 'interpret-as',
        value: interpretAs,
      });
  }
}
