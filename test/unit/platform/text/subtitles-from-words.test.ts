import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cuesFromWords, shownText, type TimedWord } from '../../../../src/platform/text/subtitles.js';

/** Words of `text` split at spaces (punctuation dropped, as engines name words), 0.4 s each with 0.1 s between. */
function timed(text: string): TimedWord[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}'-]/gu, ''))
    .filter((word) => word !== '')
    .map((word, i) => ({ text: word, start: i * 0.5, end: i * 0.5 + 0.4 }));
}

describe('cuesFromWords', () => {
  test('a cue per sentence, shown as written, from its first word’s start to its last word’s end', () => {
    const text = 'Hello there, friend! How are you today? "Fine."';
    const cues = cuesFromWords(timed(text), text);
    assert.deepEqual(cues, [
      { start: 0, end: 1.4, text: 'Hello there, friend!' },
      { start: 1.5, end: 3.4, text: 'How are you today?' },
      { start: 3.5, end: 3.9, text: '"Fine."' },
    ]);
  });

  test('a long sentence is cut into lines of at most maxChars, and a cue stays at most maxSeconds', () => {
    const text = 'This sentence goes on and on for much longer than any single line of subtitles could ever hold at once.';
    const cues = cuesFromWords(timed(text), text, { maxChars: 42, maxSeconds: 7 });
    assert.ok(cues.length >= 3);
    assert.ok(cues.every((cue) => cue.text.length <= 42 && cue.end - cue.start <= 7));
    assert.equal(cues.map((cue) => cue.text).join(' '), text);
    const slow = cuesFromWords(timed(text), text, { maxChars: 200, maxSeconds: 2 });
    assert.ok(slow.every((cue) => cue.end - cue.start <= 2));
  });

  test('words the text does not hold (an engine’s reading of a number) are shown as the engine named them', () => {
    const text = 'It costs 42 euros. Thanks.';
    const words: TimedWord[] = [
      { text: 'It', start: 0, end: 0.2 },
      { text: 'costs', start: 0.2, end: 0.6 },
      { text: 'forty', start: 0.6, end: 0.9 },
      { text: 'two', start: 0.9, end: 1.1 },
      { text: 'euros', start: 1.1, end: 1.5 },
      { text: 'Thanks', start: 2, end: 2.4 },
    ];
    assert.deepEqual(
      cuesFromWords(words, text).map((cue) => cue.text),
      ['It costs forty two euros', 'Thanks.'],
    );
  });

  test('a single word longer than a line is a cue of its own', () => {
    const cues = cuesFromWords([{ text: 'Donaudampfschifffahrtsgesellschaftskapitän', start: 0, end: 1 }], 'Donaudampfschifffahrtsgesellschaftskapitän', {
      maxChars: 10,
      maxSeconds: 7,
    });
    assert.equal(cues.length, 1);
  });
});

describe('shownText', () => {
  test('an SSML document shows its words without markup; plain text stays as it is', () => {
    assert.equal(shownText('<speak>Hello <break time="1s"/> <sub alias="National">NASA</sub> &amp; co.</speak>'), 'Hello NASA & co.');
    assert.equal(shownText('a < b & c'), 'a < b & c');
  });
});
