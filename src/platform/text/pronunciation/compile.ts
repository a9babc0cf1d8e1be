import { primaryLanguage } from '../language-tag.js';
import type { PronunciationDictionary, PronunciationRule } from './rules.js';

/** A rule ready to try at a position: its grapheme as a sticky pattern, and its place in the dictionary. */
export interface CompiledRule {
  rule: PronunciationRule;
  /** Its index in the dictionary: of two equally long matches, the earlier rule wins. */
  order: number;
  pattern: RegExp;
}

/** A dictionary indexed so that a position of a text is tried only against the rules that could start there. */
export interface CompiledDictionary {
  primaryLanguage: string;
  /** Whole-word rules that start with a word character, by their first word in lower case: tried at word starts. */
  byFirstWord: Map<string, CompiledRule[]>;
  /** Every other rule, by its first character in lower case: tried at every position. */
  byFirstChar: Map<string, CompiledRule[]>;
}

/** Letters (with their combining marks) and digits make words; anything else is a boundary. */
const LEADING_WORD = /^[\p{L}\p{M}\p{N}]+/u;
const WORD_AT = /[\p{L}\p{M}\p{N}]+/uy;
const WORD_CHAR_BEFORE = /[\p{L}\p{M}\p{N}]$/u;
const WORD_CHAR_AT = /[\p{L}\p{M}\p{N}]/uy;
const PATTERN_SYNTAX = /[.*+?^${}()|[\]\\/]/g;

/** The grapheme as a sticky pattern: its spaces match any run of white space (a line break inside a name still matches). */
function patternOf(rule: PronunciationRule): RegExp {
  const source = rule.grapheme
    .trim()
    .split(/\s+/)
    .map((part) => part.replace(PATTERN_SYNTAX, '\\$&'))
    .join('\\s+');
  return new RegExp(source, rule.caseSensitive ? 'uy' : 'iuy');
}

export function firstCharKey(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index) ?? 0).toLowerCase();
}

/** The word starting at `index` in lower case, or undefined where no word starts. */
export function wordStartingAt(text: string, index: number): string | undefined {
  if (index > 0 && isWordCharBefore(text, index)) return undefined;
  WORD_AT.lastIndex = index;
  return WORD_AT.exec(text)?.[0].toLowerCase();
}

function isWordCharBefore(text: string, index: number): boolean {
  return index > 0 && WORD_CHAR_BEFORE.test(text.slice(Math.max(0, index - 2), index));
}

function isWordCharAt(text: string, index: number): boolean {
  WORD_CHAR_AT.lastIndex = index;
  return WORD_CHAR_AT.test(text);
}

/** Whether a word neither continues across `index` from before nor after it. */
export function isWordBoundary(text: string, index: number): boolean {
  return !(isWordCharBefore(text, index) && isWordCharAt(text, index));
}

function addTo(index: Map<string, CompiledRule[]>, key: string, rule: CompiledRule): void {
  const list = index.get(key);
  if (list) list.push(rule);
  else index.set(key, [rule]);
}

export function compileDictionary(dictionary: PronunciationDictionary): CompiledDictionary {
  const compiled: CompiledDictionary = { primaryLanguage: primaryLanguage(dictionary.language), byFirstWord: new Map(), byFirstChar: new Map() };
  dictionary.rules.forEach((rule, order) => {
    const entry = { rule, order, pattern: patternOf(rule) };
    const grapheme = rule.grapheme.trim();
    const firstWord = rule.wholeWord ? LEADING_WORD.exec(grapheme)?.[0] : undefined;
    if (firstWord !== undefined) addTo(compiled.byFirstWord, firstWord.toLowerCase(), entry);
    else addTo(compiled.byFirstChar, firstCharKey(grapheme, 0), entry);
  });
  return compiled;
}
