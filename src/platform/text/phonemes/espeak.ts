import { ipaOf, phonemeTable, readIpa } from './ipa.js';
import type { Phonemes } from '../ssml/segments.js';

/**
 * IPA as eSpeak NG's phoneme mnemonics, the notation it reads between `[[ ]]` (docs/phonemes.md
 * of espeak-ng): `təˈmeɪtoʊ` → `t@'meItoU` in English. eSpeak NG keeps a phoneme table per
 * language; the mnemonics shared by most of them are BASE, and English, German, French, Spanish
 * and Italian have their own where they differ. Stress `ˈ ˌ` is `'` `,`; length `ː` is `:` in
 * languages that have long vowels or geminates, and is left out elsewhere (English writes its long
 * vowels as phonemes of their own, `i:`, which the table has). MBROLA voices speak through eSpeak
 * and take the same.
 */

const BASE = {
  p: 'p',
  b: 'b',
  t: 't',
  d: 'd',
  k: 'k',
  ɡ: 'g',
  f: 'f',
  v: 'v',
  s: 's',
  z: 'z',
  h: 'h',
  m: 'm',
  n: 'n',
  l: 'l',
  w: 'w',
  j: 'j',
  θ: 'T',
  ð: 'D',
  ʃ: 'S',
  ʒ: 'Z',
  ŋ: 'N',
  tʃ: 'tS',
  dʒ: 'dZ',
  ts: 'ts',
  dz: 'dz',
  ʔ: '?',
  x: 'x',
  ç: 'C',
  ɲ: 'n^',
  ʎ: 'l^',
  r: 'r',
  ɾ: 'r',
  ɹ: 'r',
  ʁ: 'r',
  a: 'a',
  e: 'e',
  i: 'i',
  o: 'o',
  u: 'u',
  ə: '@',
  ɛ: 'E',
  ɔ: 'O',
  ɪ: 'I',
  ʊ: 'U',
  æ: 'a',
  ɑ: 'A',
  ʌ: 'V',
  ɒ: '0',
  y: 'y',
  ø: 'Y',
  œ: 'W',
  aɪ: 'aI',
  aʊ: 'aU',
  eɪ: 'eI',
  oʊ: 'oU',
  ɔɪ: 'OI',
};

/** English (en, en-us, en-gb…): long vowels and r-coloured ones are phonemes of their own. */
const ENGLISH = {
  ...BASE,
  ɾ: 't',
  x: 'x',
  ç: 'h',
  ə: '@',
  ɚ: '3',
  ɝ: '3:',
  ɜ: '3:',
  ɜː: '3:',
  əɹ: '3',
  ɜɹ: '3:',
  ɜːɹ: '3:',
  i: 'i:',
  iː: 'i:',
  u: 'u:',
  uː: 'u:',
  ɑ: 'A:',
  ɑː: 'A:',
  ɔ: 'O:',
  ɔː: 'O:',
  e: 'E',
  o: 'oU',
  oː: 'oU',
  əʊ: 'oU',
  eə: 'e@',
  ɛə: 'e@',
  ɪə: 'I@',
  ʊə: 'U@',
  y: 'u:',
  ø: '3:',
  œ: '3:',
};

const GERMAN = { ...BASE, ʁ: 'R', ʀ: 'R', χ: 'x', pf: 'pF', ɐ: '3', ʏ: 'y', ø: 'Y', œ: 'W', ɔʏ: 'OY', ɔɪ: 'OY', eː: 'e:', ɛː: 'E:', øː: 'Y:' };
const FRENCH = { ...BASE, ʁ: 'r', ɛ̃: 'E~', ɑ̃: 'A~', ɔ̃: 'O~', œ̃: 'W~', ø: 'Y', œ: 'W', ɥ: 'w' };
const SPANISH = { ...BASE, r: 'R', ɾ: 'r', β: 'B', ɣ: 'Q', ʝ: 'j' };
const ITALIAN = { ...BASE };

interface Notation {
  table: Map<string, string>;
  symbols: ReadonlySet<string>;
  /** Whether `ː` is written (`:`) after the mnemonic. */
  length: boolean;
}

function notation(entries: Readonly<Record<string, string>>, length: boolean): Notation {
  const table = phonemeTable(entries);
  return { table, symbols: new Set(table.keys()), length };
}

const NOTATIONS = new Map<string, Notation>([
  ['en', notation(ENGLISH, false)],
  ['de', notation(GERMAN, true)],
  ['fr', notation(FRENCH, false)],
  ['es', notation(SPANISH, false)],
  ['it', notation(ITALIAN, true)],
]);
const OTHER = notation(BASE, true);

/** The mnemonics of a language (a BCP 47 tag, `en-US`); empty when nothing in the IPA is a sound eSpeak has. */
export function espeakMnemonics(phonemes: Phonemes, language: string): string {
  const { table, symbols, length } = NOTATIONS.get(language.toLowerCase().split('-')[0] ?? '') ?? OTHER;
  let mnemonics = '';
  let sounds = 0;
  for (const token of readIpa(ipaOf(phonemes), symbols)) {
    if (token.kind === 'sound') {
      mnemonics += table.get(token.ipa) ?? '';
      sounds++;
    } else if (token.kind === 'stress') mnemonics += token.level === 1 ? "'" : ',';
    else if (token.kind === 'long' && length && /[^\s',]$/u.test(mnemonics)) mnemonics += ':';
    else if (token.kind === 'break') mnemonics += ' ';
  }
  return sounds > 0 ? mnemonics.trim() : '';
}
