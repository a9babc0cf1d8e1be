import { ipaOf, phonemeTable, readIpa } from './ipa.js';
import type { Phonemes } from '../ssml/segments.js';

/**
 * IPA as the US-English phone set of CMU's lexicon, which Festival's English voices (the `radio`
 * phone set) and Flite's voices speak: `təˈmeɪtoʊ` → t ax m ey t ow, with stress on the vowels
 * (t ax0 m ey1 t ow0) for a lexicon entry. A sound outside English becomes the nearest English
 * phone (`x` → k, `y` → uw, `ʁ` → r; see NEAREST in ipa.ts for the rest).
 */

export interface CmuPhone {
  phone: string;
  /** For vowels: 1 primary stress, 2 secondary, 0 none; undefined for consonants. */
  stress?: 0 | 1 | 2;
}

const CONSONANTS = {
  p: 'p',
  b: 'b',
  t: 't',
  d: 'd',
  k: 'k',
  ɡ: 'g',
  f: 'f',
  v: 'v',
  θ: 'th',
  ð: 'dh',
  s: 's',
  z: 'z',
  ʃ: 'sh',
  ʒ: 'zh',
  h: 'hh',
  tʃ: 'ch',
  dʒ: 'jh',
  m: 'm',
  n: 'n',
  ŋ: 'ng',
  l: 'l',
  ɹ: 'r',
  r: 'r',
  ɾ: 't',
  w: 'w',
  j: 'y',
  x: 'k',
  ʔ: 't',
};

const VOWELS = {
  ɑ: 'aa',
  ɑː: 'aa',
  ɒ: 'aa',
  a: 'aa',
  æ: 'ae',
  ʌ: 'ah',
  ə: 'ax',
  ɔ: 'ao',
  ɔː: 'ao',
  aʊ: 'aw',
  aɪ: 'ay',
  ɛ: 'eh',
  e: 'eh',
  ɚ: 'er',
  ɝ: 'er',
  ɜ: 'er',
  ɜː: 'er',
  əɹ: 'er',
  ɜɹ: 'er',
  ɜːɹ: 'er',
  eɪ: 'ey',
  ɪ: 'ih',
  i: 'iy',
  iː: 'iy',
  oʊ: 'ow',
  əʊ: 'ow',
  o: 'ow',
  oː: 'ow',
  ɔɪ: 'oy',
  ʊ: 'uh',
  u: 'uw',
  uː: 'uw',
  y: 'uw',
  ø: 'er',
  œ: 'er',
};

const TABLE = phonemeTable<{ phone: string; vowel: boolean }>({
  ...Object.fromEntries(Object.entries(CONSONANTS).map(([ipa, phone]) => [ipa, { phone, vowel: false }])),
  ...Object.fromEntries(Object.entries(VOWELS).map(([ipa, phone]) => [ipa, { phone, vowel: true }])),
});
const SYMBOLS: ReadonlySet<string> = new Set(TABLE.keys());

/** The phones, stress on the vowels (from the `ˈ ˌ` before their syllable); empty when nothing converts. */
export function cmuPhones(phonemes: Phonemes): CmuPhone[] {
  const phones: CmuPhone[] = [];
  let stress: 0 | 1 | 2 = 0;
  for (const token of readIpa(ipaOf(phonemes), SYMBOLS)) {
    if (token.kind === 'stress') stress = token.level;
    if (token.kind !== 'sound') continue;
    const entry = TABLE.get(token.ipa);
    if (!entry) continue;
    if (!entry.vowel) phones.push({ phone: entry.phone });
    else {
      phones.push({ phone: entry.phone, stress });
      stress = 0;
    }
  }
  return phones;
}
