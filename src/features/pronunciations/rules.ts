import { Value } from 'typebox/value';
import { ApiError, invalidField } from '../../platform/errors.js';
import type { PronunciationRule } from '../../platform/text/pronunciation/index.js';
import { tooManyRules } from './pls-read.js';
import { PronunciationRuleInput, type StoredRule } from './schemas.js';

/** Where a rule came from, to name it in an error: a JSON body's array, or a PLS document's lexeme. */
export type RuleSource = { kind: 'json' } | { kind: 'pls'; lines: readonly number[] };

function refused(index: number, problem: string, source: RuleSource): ApiError {
  if (source.kind === 'json') return invalidField(`body.rules.${index}`, problem);
  const line = source.lines[index] ?? 0;
  return new ApiError(400, 'invalid_pls', `Invalid PLS: the lexeme at line ${line} (rule ${index}) ${problem}`, { line, rule: index });
}

/**
 * Rules as stored: at most `maxRules`, each checked (a PLS rule did not pass the body schema),
 * with exactly one of alias and phonemes, text trimmed and defaults filled in.
 */
export function storedRules(rules: readonly PronunciationRuleInput[], maxRules: number, source: RuleSource): StoredRule[] {
  if (rules.length > maxRules) throw tooManyRules(maxRules);
  return rules.map((rule, index) => {
    if (!Value.Check(PronunciationRuleInput, rule)) {
      const [first] = Value.Errors(PronunciationRuleInput, rule);
      throw refused(index, `is invalid: ${first ? `${first.instancePath || 'the rule'} ${first.message}` : 'not a rule'}`, source);
    }
    const base = { grapheme: rule.grapheme.trim(), case_sensitive: rule.case_sensitive ?? false, whole_word: rule.whole_word ?? true };
    if ((rule.alias === undefined) === (rule.phonemes === undefined)) throw refused(index, 'needs exactly one of alias and phonemes', source);
    if (rule.alias !== undefined) {
      if (rule.alphabet !== undefined) throw refused(index, 'has an alphabet but no phonemes', source);
      return { ...base, alias: rule.alias.trim() };
    }
    return { ...base, phonemes: (rule.phonemes ?? '').trim(), alphabet: rule.alphabet ?? 'ipa' };
  });
}

/** A stored rule as speaking applies it. */
export function appliedRule(rule: StoredRule): PronunciationRule {
  const match = { grapheme: rule.grapheme, caseSensitive: rule.case_sensitive, wholeWord: rule.whole_word };
  return 'alias' in rule ? { ...match, alias: rule.alias } : { ...match, phonemes: { alphabet: rule.alphabet, value: rule.phonemes } };
}
