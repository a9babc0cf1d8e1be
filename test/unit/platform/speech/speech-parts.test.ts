import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CALL_SECONDS, SpeechParts, type SpeechPart } from '../../../../src/platform/speech/speech-parts.js';

const SENTENCES = Array.from({ length: 12 }, (_, index) => `Sentence ${index + 1} is short and plain.`);
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every part of the text, each given `budget`. */
function partsOf(text: string, language: string, engineSpeed = 1, budget = CALL_SECONDS): SpeechPart[] {
  const parts = new SpeechParts(text, language, engineSpeed);
  const all: SpeechPart[] = [];
  for (let part = parts.next(budget); part; part = parts.next(budget)) all.push(part);
  return all;
}

test('whole sentences are grouped into parts of at most the budget, nothing lost or reordered', () => {
  const parts = partsOf(SENTENCES.join(' '), 'en-US');
  assert.ok(parts.length > 1 && parts.length < SENTENCES.length, `${parts.length} parts`);
  for (const part of parts) {
    assert.ok(part.seconds <= CALL_SECONDS, `${part.seconds} s`);
    assert.match(part.text, /^Sentence \d+ .*\.$/, 'a part starts and ends at a sentence');
  }
  assert.equal(parts.map((part) => part.text).join(' '), SENTENCES.join(' '));
  assert.ok(partsOf(SENTENCES.join(' '), 'en-US', 1, 60).length < parts.length, 'a larger budget, fewer parts');
});

test('a sentence too long for one call is cut at its clauses; a run with none between characters', () => {
  const clauses = Array.from({ length: 8 }, (_, index) => `the keeper climbed the stairs for the ${index + 1}th time that night`).join(', ');
  const parts = partsOf(`${clauses}.`, 'en-US');
  assert.ok(parts.length > 1);
  for (const part of parts.slice(0, -1)) assert.match(part.text, /night,$/, part.text);
  assert.equal(squeeze(parts.map((part) => part.text).join(' ')), `${clauses}.`);

  const digits = '1234567890'.repeat(40);
  const digitParts = partsOf(digits, 'ja');
  assert.ok(digitParts.length > 10 && digitParts.every((part) => part.seconds <= CALL_SECONDS));
  assert.equal(digitParts.map((part) => part.text).join(''), digits);
});

test('a slower engine gets smaller parts: a call stays as long to make', () => {
  const text = SENTENCES.join(' ');
  assert.ok(partsOf(text, 'en-US', 0.5).length > partsOf(text, 'en-US', 1).length);
});

test('text with nothing to say rides with its neighbour; a text of nothing else is one part, for the engine to refuse', () => {
  const parts = partsOf(`... ${SENTENCES[0]} ... !!! ${SENTENCES[1]}`, 'en-US', 1, 0.1);
  assert.equal(parts.length, 2);
  assert.ok(parts.every((part) => /[a-z]/i.test(part.text)));
  assert.deepEqual(partsOf('... !!!', 'en-US'), [{ text: '... !!!', seconds: 0 }]);
});
