/**
 * A dictionary's rules as the table edits them: each row says either another spelling to say
 * (`alias`) or the sounds to say (`phonemes` in an alphabet); the service takes one or the other.
 */
import type { Schemas } from '../../api.js';
import { escapeAttribute, escapeText } from '../../components/ssml-edit.js';

export type Dictionary = Schemas['PronunciationDictionary'];
export type Rule = Dictionary['rules'][number];
export type Alphabet = 'ipa' | 'x-sampa';

export interface RuleRow {
  /** Keeps a row's controls its own as rows above it are removed. */
  key: number;
  grapheme: string;
  case_sensitive: boolean;
  whole_word: boolean;
  kind: 'alias' | 'phonemes';
  alias: string;
  phonemes: string;
  alphabet: Alphabet;
}

let nextKey = 0;

export function newRow(): RuleRow {
  return { key: nextKey++, grapheme: '', case_sensitive: false, whole_word: true, kind: 'alias', alias: '', phonemes: '', alphabet: 'ipa' };
}

export function rowOf(rule: Rule): RuleRow {
  const row = { ...newRow(), grapheme: rule.grapheme, case_sensitive: rule.case_sensitive, whole_word: rule.whole_word };
  return 'phonemes' in rule ? { ...row, kind: 'phonemes', phonemes: rule.phonemes, alphabet: rule.alphabet } : { ...row, alias: rule.alias };
}

export function ruleOf(row: RuleRow): Rule {
  const match = { grapheme: row.grapheme, case_sensitive: row.case_sensitive, whole_word: row.whole_word };
  return row.kind === 'phonemes' ? { ...match, phonemes: row.phonemes, alphabet: row.alphabet } : { ...match, alias: row.alias };
}

/** Whether the row says enough to be saved: what to find and what to say instead. */
export const isComplete = (row: RuleRow) => row.grapheme.trim() !== '' && (row.kind === 'alias' ? row.alias.trim() : row.phonemes.trim()) !== '';

/** The row's grapheme said the way the row says it, as SSML: what the rule does, before it is saved. */
export function ruleAsSsml(row: RuleRow): string {
  const written = escapeText(row.grapheme);
  const element =
    row.kind === 'alias'
      ? `<sub alias="${escapeAttribute(row.alias)}">${written}</sub>`
      : `<phoneme alphabet="${row.alphabet}" ph="${escapeAttribute(row.phonemes)}">${written}</phoneme>`;
  return `<speak>${element}</speak>`;
}
