import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageTagFor, speakingLanguage, type SpeakingVoice } from '../../../../src/platform/speech/speech.js';
import { ApiError } from '../../../../src/platform/errors.js';

const voice = (language: string, languages: string[] = [language]): SpeakingVoice => ({
  id: `test:${language}`,
  type: 'preset',
  engine: 'pico',
  engineVoice: language,
  language,
  languages,
  available: true,
  settings: {},
});

const GERMAN_SENTENCE = 'Das Wetter ist heute sehr schön, wir gehen spazieren.';

test('a stated language is kept when the voice speaks it, and refused when it does not', async () => {
  assert.equal(await speakingLanguage(voice('en-US'), 'Hello.', 'en'), 'en');
  await assert.rejects(
    speakingLanguage(voice('en-US'), 'Hallo.', 'de-DE'),
    (error: unknown) => error instanceof ApiError && error.statusCode === 422 && error.code === 'language_not_supported',
  );
});

test('without one, a voice of one language speaks its own, whatever the text', async () => {
  assert.equal(await speakingLanguage(voice('en-US'), 'Hello from Timbre.'), 'en-US');
  assert.equal(await speakingLanguage(voice('en-US'), GERMAN_SENTENCE), 'en-US');
});

test('a voice of several languages keeps its own unless the text is confidently in another of them', async () => {
  const bilingual = voice('en-GB', ['en-GB', 'de-DE']);
  assert.equal(await speakingLanguage(bilingual, 'Hallo Anna!'), 'en-GB', 'a few words are not enough');
  assert.equal(await speakingLanguage(bilingual, GERMAN_SENTENCE), 'de-DE', 'as the voice tags it');
  assert.equal(await speakingLanguage(bilingual, 'Il gatto dorme sul divano, tranquillo.'), 'en-GB', 'Italian is not the voice’s');
});

test('the voice’s own tag for a language it speaks', () => {
  assert.equal(languageTagFor(voice('en-GB'), 'en'), 'en-GB');
  assert.equal(languageTagFor(voice('en-GB'), 'fr'), 'fr');
});
