/**
 * ASCII folding for engines that read text as bytes (Festival, Flite): they drop or spell out
 * anything outside ASCII, so `café` would be spoken as "caf" and `naïve` letter by letter.
 */

/** Characters NFKD does not decompose into ASCII, mapped to what a reader would say. */
const SUBSTITUTES: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u02BC]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2212]/g, '-'],
  // A long dash separates clauses; spaced so that it is not read as a hyphenated word.
  [/[\u2014\u2015]/g, ' - '],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
  [/ß/g, 'ss'],
  [/Æ/g, 'AE'],
  [/æ/g, 'ae'],
  [/Œ/g, 'OE'],
  [/œ/g, 'oe'],
  [/Ø/g, 'O'],
  [/ø/g, 'o'],
  [/Đ/g, 'D'],
  [/[đð]/g, 'd'],
  [/Ð/g, 'D'],
  [/Ł/g, 'L'],
  [/ł/g, 'l'],
  [/Þ/g, 'Th'],
  [/þ/g, 'th'],
  [/ı/g, 'i'],
  [/€/g, ' euros '],
  [/£/g, ' pounds '],
  [/°/g, ' degrees '],
];

const COMBINING_MARKS = /\p{M}/gu;
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const NON_ASCII = /[^\x00-\x7F]/g;

/** Folds text to printable ASCII: accents removed, typographic quotes and dashes mapped, the rest dropped. */
export function asciiFold(text: string): string {
  let folded = text;
  for (const [pattern, replacement] of SUBSTITUTES) folded = folded.replace(pattern, replacement);
  return folded.normalize('NFKD').replace(COMBINING_MARKS, '').replace(NON_ASCII, '');
}
