import type { Phonemes } from '../ssml/segments.js';

/** How a rule finds its written form in a text. */
export interface RuleMatch {
  /** The written form to find (not blank). */
  grapheme: string;
  /** False: any case matches (Unicode-aware). */
  caseSensitive: boolean;
  /** True: only where the match starts and ends at a word boundary. */
  wholeWord: boolean;
}

/** One rule of a dictionary: its written form is said as other words, or as these sounds. */
export type PronunciationRule = RuleMatch & ({ alias: string; phonemes?: undefined } | { phonemes: Phonemes; alias?: undefined });

/** A dictionary as speaking applies it: its rules apply to runs in its language (by primary subtag). */
export interface PronunciationDictionary {
  id: string;
  /** BCP 47; rules apply to runs whose language has the same primary subtag. */
  language: string;
  rules: readonly PronunciationRule[];
}
