import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compressionRatio, jsonTranscript, verboseTranscript } from '../../../../src/features/openai/transcript.js';

const RESULT = {
  text: 'ask not what your country can do for you',
  language: 'en',
  duration: 4.2,
  recognizer: 'pocketsphinx',
  segments: [
    {
      start: 0.1,
      end: 1.0,
      text: 'ask not',
      words: [
        { word: 'not', start: 0.5, end: 1.0, probability: 0.9 },
        { word: 'ask', start: 0.1, end: 0.45, probability: 0.1 },
      ],
    },
    {
      start: 1.5,
      end: 4.0,
      text: ' what your country can do for you',
      words: [
        { word: 'what', start: 1.5, end: 1.8, probability: null },
        { word: ' ', start: 1.8, end: 1.8, probability: null },
      ],
    },
  ],
  unsure_below: 0.2,
};

describe('transcripts in OpenAI’s shapes', () => {
  test('json: the text and the audio length as usage', () => {
    assert.deepEqual(jsonTranscript(RESULT), { text: RESULT.text, usage: { type: 'duration', seconds: 4.2 } });
  });

  test('verbose_json: English language name, numbered segments with every field, words in order of time', () => {
    const verbose = verboseTranscript(RESULT);
    assert.equal(verbose.task, 'transcribe');
    assert.equal(verbose.language, 'english');
    assert.equal(verbose.duration, 4.2);
    assert.deepEqual(
      verbose.segments.map((segment) => [segment.id, segment.seek, segment.start, segment.end]),
      [
        [0, 10, 0.1, 1.0],
        [1, 150, 1.5, 4.0],
      ],
    );
    for (const segment of verbose.segments) {
      assert.deepEqual(segment.tokens, []);
      assert.equal(segment.temperature, 0);
      assert.ok(segment.compression_ratio > 0);
    }
    assert.deepEqual(
      verbose.words.map((word) => word.word),
      ['ask', 'not', 'what'],
    );
    assert.deepEqual(Object.keys(verbose.words[0] ?? {}), ['word', 'start', 'end'], 'words keep OpenAI’s shape (no probability)');
  });

  test('compression ratio: repetitive text compresses far better than speech', () => {
    assert.ok(compressionRatio('the the the the the the the the the the the the the the the the the the the the') > 2.4);
    assert.ok(compressionRatio('what your country can do for you') < 2.4);
    assert.equal(compressionRatio(''), 0);
  });
});
