export { applyPronunciations } from './apply.js';
export type { PronunciationDictionary, PronunciationRule, RuleMatch } from './rules.js';
