import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeForWer, wordErrorRate } from '../../../../src/platform/text/wer.js';

test('normalizeForWer lowercases, strips punctuation and collapses whitespace', () => {
  assert.equal(normalizeForWer('  And so, my fellow Americans:\n ask NOT!  '), 'and so my fellow americans ask not');
  assert.equal(normalizeForWer('He said "don\u2019t panic" \u2014 and left.'), "he said don't panic and left");
  assert.equal(normalizeForWer("'quoted' well-known and/or"), 'quoted well known and or');
});

test('normalizeForWer keeps numbers and non-ASCII letters as written', () => {
  assert.equal(normalizeForWer('50% off, café naïve: 3.5, 1,000 at 10:30.'), '50 off café naïve 3.5 1,000 at 10:30');
  assert.equal(normalizeForWer('...!?'), '');
});

test('wordErrorRate is 0 for the same words however they are punctuated', () => {
  assert.equal(wordErrorRate('The quick brown fox.', 'the quick, brown fox'), 0);
});

test('wordErrorRate counts substitutions, deletions and insertions over the reference length', () => {
  assert.equal(wordErrorRate('the quick brown fox', 'the quack brown fox'), 1 / 4);
  assert.equal(wordErrorRate('the quick brown fox', 'the brown fox'), 1 / 4);
  assert.equal(wordErrorRate('the quick brown fox', 'the quick brown fox jumps'), 1 / 4);
  assert.equal(wordErrorRate('a b c d', 'b c d e f'), 3 / 4);
});

test('wordErrorRate can exceed 1 and handles empty texts', () => {
  assert.equal(wordErrorRate('hi', 'oh my oh my'), 4);
  assert.equal(wordErrorRate('', ''), 0);
  assert.equal(wordErrorRate('', 'noise'), 1);
  assert.equal(wordErrorRate('hello there', ''), 1);
});

test('wordErrorRate matches the notes: JFK hypothesis from PocketSphinx is 12 errors in 22 words', () => {
  const reference = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
  const hypothesis = 'and then our my arm arrow and not what your country can do for you and when you can you read up on me';
  assert.equal(wordErrorRate(reference, hypothesis), 12 / 22);
});
