import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { SynthesisStream } from '../../../../src/features/wyoming/streaming.js';
import type { ChosenVoice, RequestedVoice } from '../../../../src/features/wyoming/voice-choice.js';

/** A stream whose voice choices and spoken sentences are recorded, in order. */
async function recordedStream(requested?: RequestedVoice, maxTextChars = 5000) {
  const spoken: string[] = [];
  const choices: string[] = [];
  const stream = await SynthesisStream.open({
    requested,
    maxTextChars,
    chooseVoice: async (_requested, text) => {
      choices.push(text);
      return { voiceId: 'rhvoice:alan', voiceLanguage: 'en-US' } satisfies ChosenVoice;
    },
    speak: async (_voice, sentence) => {
      spoken.push(sentence);
    },
  });
  return { stream, spoken, choices };
}

describe('SynthesisStream', () => {
  test('speaks each sentence once the next has begun, and the rest at the end', async () => {
    const { stream, spoken } = await recordedStream();
    for (const piece of ['The weather', ' is sunny', ' today. ', 'Tomorrow', ' it rains.']) await stream.add(piece);
    assert.deepEqual(spoken, ['The weather is sunny today.']);
    await stream.add(' Then snow.');
    assert.deepEqual(spoken, ['The weather is sunny today.', 'Tomorrow it rains.']);
    await stream.finish();
    assert.deepEqual(spoken, ['The weather is sunny today.', 'Tomorrow it rains.', 'Then snow.']);
  });

  test('does not break after an abbreviation that only looked like an end', async () => {
    const { stream, spoken } = await recordedStream();
    await stream.add('We met Dr. ');
    await stream.add('Smith at noon. He was late.');
    await stream.finish();
    assert.deepEqual(spoken, ['We met Dr. Smith at noon.', 'He was late.']);
  });

  test('chooses the voice once, by the first sentence, when the request names none', async () => {
    const { stream, choices } = await recordedStream();
    await stream.add('Erster Satz hier. Zweiter Satz dort. Third one.');
    await stream.finish();
    assert.deepEqual(choices, ['Erster Satz hier.']);
  });

  test('checks a named voice at the start, before any text', async () => {
    const { choices } = await recordedStream({ name: 'rhvoice:alan' });
    assert.deepEqual(choices, ['']);
  });

  test('counts the whole streamed text against the text limit', async () => {
    const { stream } = await recordedStream(undefined, 20);
    await stream.add('Short one. ');
    await assert.rejects(stream.add('And this goes past it.'), (error) => error instanceof ApiError && error.code === 'text_too_long');
  });

  test('says nothing for a stream of whitespace', async () => {
    const { stream, spoken } = await recordedStream();
    await stream.add('  ');
    await stream.finish();
    assert.deepEqual(spoken, []);
  });
});
