import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { silences, type Span } from '../../../helpers/speech-measures.js';
import { ENGLISH_BUILT_INS, KOKORO_STAND_IN, OPEN_JTALK, serviceWithStandIn, speakWithWords, type Family, type TimedWord } from './families.js';

/**
 * `<break time="1500ms"/>` between two sentences is a pause of about that length in the audio
 * (ffmpeg's silencedetect finds it), and the word timings given with the audio put the gap there.
 */

const ENGLISH = '<speak>One sentence here.<break time="1500ms"/>Another sentence follows.</speak>';
const JAPANESE = '<speak>これは最初の文です。<break time="1500ms"/>次の文が続きます。</speak>';
/** How far a word's time may reach into the pause the recording holds. */
const WORD_SLACK = 0.15;

/** The longest silence: the break, if the audio holds one. */
function pauseOf(found: Span[], family: Family): Span {
  const longest = found.reduce<Span | undefined>((best, span) => (!best || span.end - span.start > best.end - best.start ? span : best), undefined);
  assert.ok(longest, `${family.name}: no silence`);
  return longest;
}

/** The break's length in the audio: 1.4–1.7 s. */
function assertBreakLength(pause: Span, found: Span[], family: Family): void {
  const seconds = pause.end - pause.start;
  assert.ok(seconds >= 1.4 && seconds <= 1.7, `${family.name}: the longest silence is ${seconds.toFixed(3)} s (silences ${JSON.stringify(found)})`);
}

/** The words on either side of the pause; none may reach into it by more than WORD_SLACK. */
function sides(words: TimedWord[], pause: Span, family: Family): { before: TimedWord[]; after: TimedWord[] } {
  const before = words.filter((word) => word.end <= pause.start + WORD_SLACK);
  const after = words.filter((word) => word.start >= pause.end - WORD_SLACK);
  assert.equal(before.length + after.length, words.length, `${family.name}: pause ${JSON.stringify(pause)}, words ${JSON.stringify(words)}`);
  return { before, after };
}

describe('a 1.5 s break between two sentences', () => {
  const fixture = serviceWithStandIn();

  for (const family of [...ENGLISH_BUILT_INS, KOKORO_STAND_IN]) {
    test(`${family.name}: a silence of 1.4–1.7 s, after "here" and before "Another" by the word timings`, async () => {
      const { audio, words } = await speakWithWords(fixture, family, ENGLISH);
      const found = await silences(audio);
      const pause = pauseOf(found, family);
      const { before, after } = sides(words, pause, family);
      assert.deepEqual(
        before.map((word) => word.text.replace(/\W/g, '').toLowerCase()),
        ['one', 'sentence', 'here'],
        `${family.name}: ${JSON.stringify(words)} around ${JSON.stringify(pause)}`,
      );
      assert.equal(after[0]?.text.replace(/\W/g, '').toLowerCase(), 'another', `${family.name}: ${JSON.stringify(words)}`);
      assertBreakLength(pause, found, family);
    });
  }

  test(`${OPEN_JTALK.name}: a silence of 1.4–1.7 s between the two Japanese sentences, with words on both sides of it`, async () => {
    const { audio, words } = await speakWithWords(fixture, OPEN_JTALK, JAPANESE);
    const found = await silences(audio);
    const pause = pauseOf(found, OPEN_JTALK);
    const { before, after } = sides(words, pause, OPEN_JTALK);
    assert.ok(before.length > 0 && after.length > 0, JSON.stringify(words));
    const said = (side: TimedWord[]) => side.map((word) => word.text).join('');
    assert.ok(said(before).includes('最初') && said(after).includes('次'), JSON.stringify(words));
    assertBreakLength(pause, found, OPEN_JTALK);
  });
});
