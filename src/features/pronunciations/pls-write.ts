import { PLS_NAMESPACE, TIMBRE_PLS_NAMESPACE } from './pls-format.js';
import type { StoredRule } from './schemas.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escaped(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

function lexeme(rule: StoredRule, alphabet: string): string {
  // Only what differs from the defaults is written, so a plain rule reads as plain PLS.
  const flags = [rule.case_sensitive ? ' timbre:case-sensitive="true"' : '', rule.whole_word ? '' : ' timbre:whole-word="false"'].join('');
  const said =
    'alias' in rule
      ? `<alias>${escaped(rule.alias)}</alias>`
      : `<phoneme${rule.alphabet === alphabet ? '' : ` alphabet="${rule.alphabet}"`}>${escaped(rule.phonemes)}</phoneme>`;
  return `  <lexeme>\n    <grapheme${flags}>${escaped(rule.grapheme)}</grapheme>\n    ${said}\n  </lexeme>\n`;
}

/** A dictionary as a PLS 1.0 document: one lexeme per rule, in order. */
export function plsDocument(dictionary: { language: string; rules: readonly StoredRule[] }): string {
  const firstPhonemes = dictionary.rules.find((rule) => 'phonemes' in rule);
  const alphabet = firstPhonemes && 'phonemes' in firstPhonemes ? firstPhonemes.alphabet : 'ipa';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" xmlns:timbre="${TIMBRE_PLS_NAMESPACE}" alphabet="${alphabet}" xml:lang="${escaped(dictionary.language)}">\n`,
    ...dictionary.rules.map((rule) => lexeme(rule, alphabet)),
    '</lexicon>\n',
  ].join('');
}
