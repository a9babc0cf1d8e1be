import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { durationOf } from '../../../src/platform/audio/pcm.js';
import { encodeWav } from '../../../src/platform/audio/wav.js';
import { createEspeakSynthesizer, espeakEngine } from '../../../src/platform/engines/espeak.js';
import { createFestivalSynthesizer, festivalEngine } from '../../../src/platform/engines/festival.js';
import { createFliteSynthesizer, fliteEngine } from '../../../src/platform/engines/flite.js';
import { createOpenJtalkSynthesizer, openjtalkEngine } from '../../../src/platform/engines/openjtalk.js';
import type { EngineDescriptor, SynthesisResult, Synthesizer, WordTiming } from '../../../src/platform/engines/types.js';
import { matchedWords, speechSpan, wordsHeard } from '../../helpers/speech-measures.js';

/**
 * Word timings as the engines give them, held against independent judges: in order and not
 * overlapping, the last word ending with the speech (ffmpeg's decoding of the audio, its last
 * sample above -40 dBFS), and for English the words' starts near where PocketSphinx hears them.
 */

/** How far the last word's end may be from the end of speech, seconds. */
const END_TOLERANCE = 0.15;
/** The most the median word start may differ from the recognizer's, seconds. */
const START_TOLERANCE = 0.08;

const ENGLISH = 'Yesterday we walked to the market and bought fresh bread. Please remember to close the window before you leave.';
const JAPANESE = '今日は良い天気ですね、東京へ行きましょう。吾輩は猫である。名前はまだ無い。';

interface Subject {
  descriptor: EngineDescriptor;
  synthesizer: Synthesizer;
  voice: string;
  text: string;
  /** Judged by the English recognizer too. */
  english: boolean;
}

const subjects: Subject[] = [
  { descriptor: fliteEngine, synthesizer: createFliteSynthesizer(), voice: 'flite:slt', text: ENGLISH, english: true },
  { descriptor: fliteEngine, synthesizer: createFliteSynthesizer(), voice: 'flite:kal16', text: ENGLISH, english: true },
  { descriptor: espeakEngine, synthesizer: createEspeakSynthesizer(), voice: 'espeak:en-us', text: ENGLISH, english: false },
  { descriptor: festivalEngine, synthesizer: createFestivalSynthesizer(), voice: 'festival:kal_diphone', text: ENGLISH, english: true },
  { descriptor: openjtalkEngine, synthesizer: createOpenJtalkSynthesizer(), voice: 'openjtalk:nitech-jp-atr503-m001', text: JAPANESE, english: false },
];
after(() => Promise.all(subjects.map(async (subject) => subject.synthesizer.dispose?.())));

function assertOrdered(words: readonly WordTiming[], result: SynthesisResult): void {
  let previousEnd = 0;
  for (const word of words) {
    assert.ok(word.start >= previousEnd - 1e-6, `${word.word} starts at ${word.start}, before the word before ends (${previousEnd})`);
    assert.ok(word.end > word.start, `${word.word}: ${word.start}–${word.end}`);
    previousEnd = word.end;
  }
  assert.ok(previousEnd <= durationOf(result.pcm) + 1e-6);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

for (const { descriptor, synthesizer, voice, text, english } of subjects) {
  const availability = await descriptor.probe();
  const installed = availability.available && (await synthesizer.listVoices()).some((candidate) => candidate.id === voice);
  describe(`${voice} word timings`, { skip: !installed && `${voice} not installed` }, () => {
    let spoken: { result: SynthesisResult; words: WordTiming[]; wav: Buffer } | undefined;
    const speak = async () => {
      if (spoken) return spoken;
      const result = await synthesizer.synthesize({ text, voice }, { signal: new AbortController().signal, progress: () => undefined });
      spoken = { result, words: result.words ?? [], wav: encodeWav(result.pcm) };
      return spoken;
    };

    test('declared, one per written word, in order and not overlapping', async () => {
      assert.equal(synthesizer.capabilities.wordTimings, true);
      const { result, words } = await speak();
      if (english) {
        assert.deepEqual(
          words.map((word) => word.word),
          text.split(' ').map((word) => word.replace(/[.,]$/, '')),
        );
      } else assert.ok(words.length >= 10, `${words.length} words`);
      assertOrdered(words, result);
    });

    test('the last word ends with the speech', async () => {
      const { words, wav } = await speak();
      const { end } = await speechSpan(wav);
      const last = words.at(-1);
      assert.ok(last && Math.abs(last.end - end) <= END_TOLERANCE, `last word ends at ${last?.end}, the speech at ${end}`);
    });

    test('words start where the recognizer hears them', { skip: !english && 'not English' }, async () => {
      const { words, wav } = await speak();
      const pairs = matchedWords(
        words.map((word) => ({ ...word, text: word.word })),
        await wordsHeard(wav),
      );
      assert.ok(pairs.length >= words.length / 2, `the recognizer heard ${pairs.length} of ${words.length} words as written`);
      const difference = median(pairs.map(({ written, heard }) => Math.abs(written.start - heard.start)));
      assert.ok(difference <= START_TOLERANCE, `median start difference ${difference.toFixed(3)} s`);
    });
  });
}
