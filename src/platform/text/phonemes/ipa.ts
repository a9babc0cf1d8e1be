import { ipaFromXSampa } from './x-sampa.js';
import type { Phonemes } from '../ssml/segments.js';

/**
 * IPA read as the sounds of an engine's phoneme set. Each engine names its phonemes by an IPA
 * table (`tʃ` → `tS`); the IPA is read longest symbol first against that table. A symbol the
 * table lacks becomes the nearest sound it has (NEAREST, tried in turn: `ɐ` → `ə`, `ɟ` → `ɡ`),
 * diacritics and unknown letters are dropped. Stress (`ˈ ˌ`), length (`ː`) and word breaks are
 * kept as marks for the engine's notation; syllable breaks (`.`) are not.
 */

export type IpaToken = { kind: 'sound'; ipa: string } | { kind: 'stress'; level: 1 | 2 } | { kind: 'long' } | { kind: 'break' };

/** The nearest sound of a symbol many phoneme sets lack, by place and manner. */
const NEAREST: Readonly<Record<string, string>> = {
  ɐ: 'ə',
  ɘ: 'ə',
  ɵ: 'ə',
  ɞ: 'ɜ',
  ɜ: 'ə',
  ɚ: 'ə',
  ɝ: 'ɚ',
  ɨ: 'ɪ',
  ᵻ: 'ɪ',
  ʉ: 'u',
  ᵿ: 'ʊ',
  ɤ: 'o',
  ɯ: 'u',
  ʏ: 'y',
  y: 'i',
  ø: 'e',
  œ: 'ɛ',
  ɶ: 'a',
  ɒ: 'ɑ',
  ɑ: 'a',
  æ: 'a',
  ʌ: 'ə',
  ɛ: 'e',
  ɔ: 'o',
  ɪ: 'i',
  ʊ: 'u',
  ɻ: 'ɹ',
  ɹ: 'r',
  ɽ: 'ɾ',
  ɾ: 'r',
  ʀ: 'ʁ',
  ʁ: 'r',
  ʙ: 'b',
  ɓ: 'b',
  ɗ: 'd',
  ɠ: 'ɡ',
  ʄ: 'ɟ',
  ɟ: 'ɡ',
  c: 'k',
  q: 'k',
  ɢ: 'ɡ',
  ɦ: 'h',
  ħ: 'h',
  ʕ: 'h',
  ɧ: 'ʃ',
  ɕ: 'ʃ',
  ʂ: 'ʃ',
  ʑ: 'ʒ',
  ʐ: 'ʒ',
  ɖ: 'd',
  ʈ: 't',
  ɳ: 'n',
  ɴ: 'ŋ',
  ɭ: 'l',
  ɺ: 'l',
  ɫ: 'l',
  ʟ: 'l',
  ɬ: 'l',
  ɮ: 'l',
  ʎ: 'l',
  ɲ: 'n',
  ɱ: 'm',
  ɰ: 'w',
  ʋ: 'v',
  β: 'v',
  ɸ: 'f',
  ʝ: 'j',
  ɥ: 'w',
  ʍ: 'w',
  χ: 'x',
  x: 'h',
  ç: 'h',
  ʔ: 't',
};

/** Spellings folded before reading: ligatures, the ASCII g, tie bars, brackets of a transcription. */
function folded(ipa: string): string {
  return ipa
    .normalize('NFD')
    .replace(/[ʧʤʦʣ]/gu, (ligature) => ({ ʧ: 'tʃ', ʤ: 'dʒ', ʦ: 'ts', ʣ: 'dz' })[ligature] ?? ligature)
    .replaceAll('g', 'ɡ')
    .replace(/[\u0361\u035C/[\]()]/gu, '')
    .replaceAll("'", 'ˈ');
}

/** Reads IPA against a phoneme table's symbols (written in NFD, as folded() leaves the IPA). */
export function readIpa(ipa: string, symbols: ReadonlySet<string>): IpaToken[] {
  const text = folded(ipa);
  const longest = Math.max(1, ...[...symbols].map((symbol) => symbol.length));
  const tokens: IpaToken[] = [];
  for (let at = 0; at < text.length;) {
    const char = text[at] ?? '';
    at++;
    if (char === '.') continue; // a syllable break: the engines find syllables themselves
    if (/[\s‿|‖,;]/u.test(char)) {
      if (tokens.length > 0 && tokens.at(-1)?.kind !== 'break') tokens.push({ kind: 'break' });
      continue;
    }
    if (char === 'ˈ' || char === 'ˌ') {
      tokens.push({ kind: 'stress', level: char === 'ˈ' ? 1 : 2 });
      continue;
    }
    if (char === 'ː' || char === 'ˑ' || char === ':') {
      tokens.push({ kind: 'long' });
      continue;
    }
    let length = Math.min(longest, text.length - at + 1);
    while (length > 0 && !symbols.has(text.slice(at - 1, at - 1 + length))) length--;
    if (length > 0) {
      tokens.push({ kind: 'sound', ipa: text.slice(at - 1, at - 1 + length) });
      at += length - 1;
      continue;
    }
    const nearest = nearestIn(char, symbols);
    if (nearest !== undefined) tokens.push({ kind: 'sound', ipa: nearest });
  }
  return tokens;
}

function nearestIn(symbol: string, symbols: ReadonlySet<string>): string | undefined {
  const seen = new Set<string>();
  for (let candidate = NEAREST[symbol]; candidate !== undefined && !seen.has(candidate); candidate = NEAREST[candidate]) {
    if (symbols.has(candidate)) return candidate;
    seen.add(candidate);
  }
  return undefined;
}

/** A request's phonemes as IPA, whichever alphabet they came in. */
export function ipaOf(phonemes: Phonemes): string {
  return phonemes.alphabet === 'x-sampa' ? ipaFromXSampa(phonemes.value) : phonemes.value;
}

/** A phoneme table whose IPA keys are in the NFD form readIpa compares against. */
export function phonemeTable<T>(entries: Readonly<Record<string, T>>): Map<string, T> {
  return new Map(Object.entries(entries).map(([ipa, value]) => [ipa.normalize('NFD'), value]));
}
