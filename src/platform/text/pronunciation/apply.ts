import { primaryLanguage } from '../language-tag.js';
import type { MarkedRun, SpeechRun } from '../ssml/segments.js';
import { compileDictionary, firstCharKey, isWordBoundary, wordStartingAt, type CompiledDictionary, type CompiledRule } from './compile.js';
import type { PronunciationDictionary, PronunciationRule } from './rules.js';

export type { PronunciationDictionary, PronunciationRule } from './rules.js';

/** Each dictionary is compiled once: the service hands out the same object until the dictionary changes. */
const compiledDictionaries = new WeakMap<PronunciationDictionary, CompiledDictionary>();

function compiled(dictionary: PronunciationDictionary): CompiledDictionary {
  let entry = compiledDictionaries.get(dictionary);
  if (!entry) {
    entry = compileDictionary(dictionary);
    compiledDictionaries.set(dictionary, entry);
  }
  return entry;
}

/**
 * Rewrites the author's own words (speech runs with `literal`) by the dictionaries of their
 * language: one pass from left to right where, at each position, the longest match wins (of equal
 * ones, the earlier dictionary, then the earlier rule). What a rule put in is never read again, so
 * a rule whose replacement holds its own grapheme applies once per occurrence.
 */
export function applyPronunciations(runs: readonly MarkedRun[], dictionaries: readonly PronunciationDictionary[], language: string): MarkedRun[] {
  if (dictionaries.length === 0) return [...runs];
  const all = dictionaries.map(compiled);
  return runs.flatMap((run) => {
    if (run.kind !== 'speech' || !run.literal) return [run];
    const primary = primaryLanguage(run.language ?? language);
    const applicable = all.filter((dictionary) => dictionary.primaryLanguage === primary);
    return applicable.length === 0 ? [run] : rewrite(run, applicable);
  });
}

function rewrite(run: SpeechRun, dictionaries: readonly CompiledDictionary[]): SpeechRun[] {
  const { text } = run;
  const rewritten: SpeechRun[] = [];
  let kept = 0;
  let index = 0;
  while (index < text.length) {
    const match = longestMatchAt(text, index, dictionaries);
    if (!match) {
      index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
      continue;
    }
    if (index > kept) rewritten.push({ ...run, text: text.slice(kept, index) });
    rewritten.push(replaced(run, match.rule, text.slice(index, match.end)));
    index = kept = match.end;
  }
  if (kept < text.length) rewritten.push({ ...run, text: text.slice(kept) });
  return rewritten;
}

function replaced(run: SpeechRun, rule: PronunciationRule, written: string): SpeechRun {
  if (rule.alias !== undefined) return { ...run, text: rule.alias, literal: false };
  return { ...run, text: written, literal: false, phonemes: rule.phonemes };
}

interface Match {
  rule: PronunciationRule;
  end: number;
}

/** The longest match starting at `index`; of equally long ones, the earlier dictionary's, then its earlier rule's. */
function longestMatchAt(text: string, index: number, dictionaries: readonly CompiledDictionary[]): Match | undefined {
  const word = wordStartingAt(text, index);
  const char = firstCharKey(text, index);
  let best: (Match & { dictionary: number; order: number }) | undefined;
  dictionaries.forEach((dictionary, dictionaryIndex) => {
    for (const candidate of candidatesAt(dictionary, word, char)) {
      const end = matchEnd(text, index, candidate);
      if (end === undefined) continue;
      const wins = best === undefined || end > best.end || (end === best.end && dictionaryIndex === best.dictionary && candidate.order < best.order);
      if (wins) best = { rule: candidate.rule, end, dictionary: dictionaryIndex, order: candidate.order };
    }
  });
  return best;
}

function candidatesAt(dictionary: CompiledDictionary, word: string | undefined, char: string): CompiledRule[] {
  const byWord = word === undefined ? undefined : dictionary.byFirstWord.get(word);
  const byChar = dictionary.byFirstChar.get(char);
  if (!byWord) return byChar ?? [];
  return byChar ? [...byWord, ...byChar] : byWord;
}

function matchEnd(text: string, index: number, candidate: CompiledRule): number | undefined {
  candidate.pattern.lastIndex = index;
  const found = candidate.pattern.exec(text);
  if (!found) return undefined;
  const end = index + found[0].length;
  if (candidate.rule.wholeWord && !(isWordBoundary(text, index) && isWordBoundary(text, end))) return undefined;
  return end;
}
