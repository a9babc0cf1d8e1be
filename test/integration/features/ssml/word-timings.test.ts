import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { median } from '../../../../bench/measure.js';
import { matchedWords, speechSpan, wordsHeard } from '../../../helpers/speech-measures.js';
import { ESPEAK_FORMANT, HEARD_BY_RECOGNIZER, KOKORO_STAND_IN, serviceWithStandIn, speakWithWords, type TimedWord } from './families.js';

/**
 * The word timings `"with_timestamps": true` gives with the audio, against the audio itself: in
 * order and without overlap, the last word ending within 150 ms of the end of speech (the last
 * sound above −40 dBFS), and for the words PocketSphinx hears as written, in the same order, a
 * median start within 80 ms of the recognizer's own. The recognizer cannot hear eSpeak NG's
 * formant voice (families.ts) and the stand-in speaks no words, so those two are held to the first
 * two only.
 */

const SENTENCE = 'Please remember to close the window before you leave the house this evening.';
const END_SLACK = 0.15;
const START_AGREEMENT = 0.08;
/** Fewer words heard as written than this say nothing about the timings. */
const MIN_MATCHED = 5;

async function assertOrderedAndEnding(words: TimedWord[], audio: Buffer, name: string): Promise<void> {
  assert.ok(words.length > 0, `${name}: no words`);
  words.forEach((word, index) => {
    assert.ok(word.start >= 0 && word.end >= word.start, `${name}: ${JSON.stringify(word)}`);
    const next = words[index + 1];
    if (next) assert.ok(next.start >= word.end, `${name}: ${JSON.stringify(word)} overlaps ${JSON.stringify(next)}`);
  });
  const speechEnd = (await speechSpan(audio)).end;
  const lastEnd = words.at(-1)!.end;
  assert.ok(Math.abs(lastEnd - speechEnd) <= END_SLACK, `${name}: the last word ends at ${lastEnd} s, the speech at ${speechEnd.toFixed(3)} s`);
}

describe('word timings against the audio and the recognizer', () => {
  const fixture = serviceWithStandIn();

  for (const family of HEARD_BY_RECOGNIZER) {
    test(`${family.name}: in order, ending with the speech, starts within 80 ms of PocketSphinx's (median)`, async () => {
      const { audio, words } = await speakWithWords(fixture, family, SENTENCE);
      await assertOrderedAndEnding(words, audio, family.name);
      const pairs = matchedWords(words, await wordsHeard(audio));
      assert.ok(pairs.length >= MIN_MATCHED, `${family.name}: only ${pairs.length} words heard as written`);
      const differences = pairs.map((pair) => Math.abs(pair.written.start - pair.heard.start));
      // Both sides' times are whole milliseconds.
      const difference = Math.round(median(differences) * 1000) / 1000;
      assert.ok(
        difference <= START_AGREEMENT,
        `${family.name}: median start difference ${(difference * 1000).toFixed(0)} ms over ${pairs.length} words (${pairs.map((pair) => `${pair.heard.word} ${pair.written.start}/${pair.heard.start}`).join(', ')})`,
      );
    });
  }

  for (const family of [ESPEAK_FORMANT, KOKORO_STAND_IN]) {
    test(`${family.name}: in order, ending with the sound`, async () => {
      const { audio, words } = await speakWithWords(fixture, family, SENTENCE);
      await assertOrderedAndEnding(words, audio, family.name);
    });
  }
});
