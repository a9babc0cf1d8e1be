/**
 * English number words (American style: "one hundred twenty-three", no "and"), so that every
 * synthesizer says a number the same way instead of each guessing from digits.
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: ReadonlyArray<readonly [number, string]> = [
  [1e12, 'trillion'],
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];
/** 999 trillion: the largest scale named; also safely below 2^53, so Number holds it exactly. */
const MAX_CARDINAL = 1e15 - 1;

const IRREGULAR_ORDINALS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

function below100(n: number): string {
  if (n < 20) return ONES[n]!;
  const unit = n % 10;
  return TENS[Math.floor(n / 10)]! + (unit ? `-${ONES[unit]}` : '');
}

function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (!hundreds) return below100(rest);
  return `${ONES[hundreds]} hundred` + (rest ? ` ${below100(rest)}` : '');
}

/** An integer in words, up to ±999 trillion: 1234 → "one thousand two hundred thirty-four". */
export function cardinalEn(n: number): string {
  if (!Number.isSafeInteger(n) || Math.abs(n) > MAX_CARDINAL) throw new RangeError(`Cannot spell ${n} in words`);
  if (n < 0) return `minus ${cardinalEn(-n)}`;
  if (n === 0) return 'zero';
  const parts: string[] = [];
  let rest = n;
  for (const [value, name] of SCALES) {
    const count = Math.floor(rest / value);
    if (count) parts.push(`${below1000(count)} ${name}`);
    rest %= value;
  }
  if (rest) parts.push(below1000(rest));
  return parts.join(' ');
}

/** 21 → "twenty-first": the last word of the cardinal becomes an ordinal. */
export function ordinalEn(n: number): string {
  return cardinalEn(n).replace(/[a-z]+$/, (last) => IRREGULAR_ORDINALS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`));
}

/**
 * A year as people say it: 1999 → "nineteen ninety-nine", 1905 → "nineteen oh five", 1900 →
 * "nineteen hundred", 2005 → "two thousand five", 2024 → "twenty twenty-four". Outside
 * 1000..9999 a year is just a cardinal.
 */
export function yearEn(year: number): string {
  if (year < 1000 || year > 9999) return cardinalEn(year);
  const century = Math.floor(year / 100);
  const rest = year % 100;
  // 2000 and 2001..2009 (and 1000..1009) are said as thousands, not "twenty oh five".
  if (year % 1000 === 0 || (century % 10 === 0 && rest < 10)) return cardinalEn(year);
  if (rest === 0) return `${below100(century)} hundred`;
  if (rest < 10) return `${below100(century)} oh ${ONES[rest]}`;
  return `${below100(century)} ${below100(rest)}`;
}

/** Digits one by one: "07" → "zero seven". */
function digitsEn(digits: string): string {
  return [...digits].map((digit) => ONES[Number(digit)]).join(' ');
}

/**
 * A written number ("1,234", "3.14", "007") in words. Leading zeros and integers past 999
 * trillion are read digit by digit, as people read codes and very long numbers; decimals are
 * read digit by digit after "point".
 */
export function numberEn(written: string): string {
  const [whole = '', fraction] = written.replace(/,/g, '').split('.');
  const wholeWords = (whole.length > 1 && whole.startsWith('0')) || Number(whole) > MAX_CARDINAL ? digitsEn(whole) : cardinalEn(Number(whole));
  return fraction ? `${wholeWords} point ${digitsEn(fraction)}` : wholeWords;
}
