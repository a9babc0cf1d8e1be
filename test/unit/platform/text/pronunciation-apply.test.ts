import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  applyPronunciations,
  type PronunciationDictionary,
  type PronunciationRule,
  type RuleMatch,
} from '../../../../src/platform/text/pronunciation/index.js';
import { plainRuns, type MarkedRun } from '../../../../src/platform/text/ssml/segments.js';

const alias = (grapheme: string, to: string, options: Partial<RuleMatch> = {}): PronunciationRule => ({
  grapheme,
  caseSensitive: false,
  wholeWord: true,
  alias: to,
  ...options,
});

const dictionary = (rules: PronunciationRule[], language = 'en-US', id = 'pron_test'): PronunciationDictionary => ({ id, language, rules });

/** The runs as [text, literal] pairs, phoneme runs as [text, phonemes]. */
function spoken(runs: MarkedRun[]): [string, boolean | string][] {
  return runs.map((run) => (run.kind === 'break' ? ['<break>', false] : [run.text, run.phonemes ? run.phonemes.value : run.literal]));
}

const apply = (text: string, dictionaries: PronunciationDictionary[], language = 'en') => spoken(applyPronunciations(plainRuns(text), dictionaries, language));

describe('applyPronunciations', () => {
  test('an alias splits the run: the words around it stay the author’s, the alias is decided', () => {
    assert.deepEqual(apply('NASA launched it.', [dictionary([alias('NASA', 'National Aeronautics and Space Administration')])]), [
      ['National Aeronautics and Space Administration', false],
      [' launched it.', true],
    ]);
  });

  test('a whole-word rule matches only whole words; another matches inside words too', () => {
    const rules = [alias('cat', 'feline')];
    assert.deepEqual(apply('concatenate the cat', [dictionary(rules)]), [
      ['concatenate the ', true],
      ['feline', false],
    ]);
    assert.deepEqual(apply('concatenate', [dictionary([alias('cat', 'CAT', { wholeWord: false })])]), [
      ['con', true],
      ['CAT', false],
      ['enate', true],
    ]);
    assert.deepEqual(apply('Straße, straßen', [dictionary([alias('straße', 'street')])]), [
      ['street', false],
      [', straßen', true],
    ]);
  });

  test('case: any case matches unless the rule is case-sensitive', () => {
    assert.deepEqual(apply('Ölfeld ÖLFELD', [dictionary([alias('ölfeld', 'oil field')], 'de')], 'de'), [
      ['oil field', false],
      [' ', true],
      ['oil field', false],
    ]);
    assert.deepEqual(apply('US us', [dictionary([alias('US', 'United States', { caseSensitive: true })])]), [
      ['United States', false],
      [' us', true],
    ]);
  });

  test('the longest match wins; of equal ones the earlier dictionary, then the earlier rule', () => {
    const short = alias('New', 'Nu');
    const long = alias('New York', 'the Big Apple');
    assert.deepEqual(apply('New York, New', [dictionary([short, long])]), [
      ['the Big Apple', false],
      [', ', true],
      ['Nu', false],
    ]);
    const first = dictionary([alias('SQL', 'sequel')], 'en', 'pron_a');
    const second = dictionary([alias('SQL', 'S Q L')], 'en', 'pron_b');
    assert.deepEqual(apply('SQL', [first, second]), [['sequel', false]]);
    assert.deepEqual(apply('SQL', [second, first]), [['S Q L', false]]);
    assert.deepEqual(apply('SQL', [dictionary([alias('sql', 'one'), alias('SQL', 'two')])]), [['one', false]]);
  });

  test('a rule whose alias holds its own grapheme applies once per occurrence', () => {
    assert.deepEqual(apply('a b a', [dictionary([alias('a', 'a a', { wholeWord: false })])]), [
      ['a a', false],
      [' b ', true],
      ['a a', false],
    ]);
  });

  test('a phoneme rule gives a run of sounds that keeps the written word', () => {
    const runs = applyPronunciations(
      plainRuns('Say tomato.'),
      [dictionary([{ grapheme: 'tomato', caseSensitive: false, wholeWord: true, phonemes: { alphabet: 'ipa', value: 'təˈmɑːtoʊ' } }])],
      'en',
    );
    assert.deepEqual(runs[1], {
      kind: 'speech',
      text: 'tomato',
      literal: false,
      rate: 1,
      pitch: 1,
      volumeDb: 0,
      phonemes: { alphabet: 'ipa', value: 'təˈmɑːtoʊ' },
    });
  });

  test('a dictionary applies to runs of its language only, and never to words markup decided', () => {
    const english = dictionary([alias('chat', 'conversation')], 'en-GB');
    const runs: MarkedRun[] = [
      { kind: 'speech', text: 'chat', literal: true, language: 'fr-FR', rate: 1, pitch: 1, volumeDb: 0 },
      { kind: 'break', seconds: 1 },
      { kind: 'speech', text: 'chat', literal: false, rate: 1.5, pitch: 1, volumeDb: 0 },
      { kind: 'speech', text: 'chat', literal: true, voice: 'pico:en-GB', rate: 0.8, pitch: 1.2, volumeDb: -3 },
    ];
    const result = applyPronunciations(runs, [english], 'en-US');
    assert.deepEqual(result.slice(0, 3), runs.slice(0, 3));
    assert.deepEqual(result[3], { kind: 'speech', text: 'conversation', literal: false, voice: 'pico:en-GB', rate: 0.8, pitch: 1.2, volumeDb: -3 });
  });

  test('a thousand rules over a long text give the same result as each rule found by hand', () => {
    const rules = Array.from({ length: 1000 }, (_, index) => alias(`word${index}`, `term ${index}`));
    const words = Array.from({ length: 250 }, (_, index) => `word${(index * 7) % 1500}`);
    const result = applyPronunciations(plainRuns(words.join(' ')), [dictionary(rules)], 'en');
    const expected = words.map((word) => (Number(word.slice(4)) < 1000 ? `term ${word.slice(4)}` : word)).join(' ');
    assert.equal(result.map((run) => (run.kind === 'speech' ? run.text : '')).join(''), expected);
  });
});
