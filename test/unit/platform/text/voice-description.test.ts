import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESCRIPTION_VOCABULARY, parseVoiceDescription } from '../../../../src/platform/text/voice-description.js';
import type { WordsByLanguage } from '../../../../src/platform/text/voice-vocabulary.js';

test('an English description sets gender, pitch, pace and energy', () => {
  const voice = parseVoiceDescription('a calm, deep male voice, slow');
  assert.equal(voice.gender, 'male');
  assert.ok(voice.pitch! < 0 && voice.pace! < 0 && voice.energy! < 0);
  assert.deepEqual(
    voice.understood.map((understood) => understood.word),
    ['calm', 'deep', 'male', 'slow'],
  );
  assert.deepEqual(voice.ignored, []);
});

test('age, brightness and a fast pace', () => {
  const voice = parseVoiceDescription('A bright young female voice, fast');
  assert.equal(voice.gender, 'female');
  assert.equal(voice.age, 'young');
  assert.ok(voice.brightness! > 0 && voice.pace! > 0);
});

test('intensifiers scale the next word and are merged into it', () => {
  assert.equal(parseVoiceDescription('very slow').pace, -2);
  assert.equal(parseVoiceDescription('slightly slow').pace, -0.5);
  assert.equal(parseVoiceDescription('a bit slow').pace, -0.5);
  assert.equal(parseVoiceDescription('extremely very slow').pace, -2);
  assert.deepEqual(parseVoiceDescription('very slow').understood, [{ word: 'very slow', attribute: 'pace', value: -2 }]);
});

test('steps of one attribute add up and are clamped to its range', () => {
  assert.equal(parseVoiceDescription('deep, low-pitched').pitch, -2);
  assert.equal(parseVoiceDescription('very deep, very low, bass').pitch, -2);
  assert.equal(parseVoiceDescription('slow but quick').pace, 0);
  assert.equal(parseVoiceDescription('very breathy, husky, whispery').breathiness, 2);
});

test('German, French and Spanish descriptions, with or without accents on letters', () => {
  const german = parseVoiceDescription('eine tiefe männliche Stimme, langsam');
  assert.deepEqual([german.gender, german.pitch, german.pace, german.ignored], ['male', -1, -1, []]);
  const french = parseVoiceDescription('une voix féminine, rapide');
  assert.equal(french.gender, 'female');
  assert.equal(french.pace, 1);
  assert.deepEqual(french.ignored, []);
  const spanish = parseVoiceDescription('voz de mujer, muy rápida');
  assert.equal(spanish.gender, 'female');
  assert.equal(spanish.pace, 2);
  assert.equal(parseVoiceDescription('voz de mujer, muy rapida').pace, 2);
});

test('a negated word contributes nothing but is still understood', () => {
  const voice = parseVoiceDescription('not too fast');
  assert.equal(voice.pace, 0);
  assert.deepEqual(voice.understood, [{ word: 'not too fast', attribute: 'pace', value: 0 }]);
  assert.equal(parseVoiceDescription('nicht schnell, tief').pace, 0);
  assert.equal(parseVoiceDescription('pas trop rapide').pace, 0);
});

test('a negated gender or accent is not applied and is reported as ignored', () => {
  const voice = parseVoiceDescription('a woman, not british');
  assert.equal(voice.accent, undefined);
  assert.deepEqual(voice.ignored, ['not british']);
});

test('accents become BCP-47 tags', () => {
  assert.equal(parseVoiceDescription('british').accent, 'en-GB');
  assert.equal(parseVoiceDescription('with an Australian accent').accent, 'en-AU');
  assert.equal(parseVoiceDescription('a Scottish man').accent, 'en-GB');
  assert.equal(parseVoiceDescription('canadian french').accent, 'fr-CA');
  assert.equal(parseVoiceDescription("avec l'accent québécois").accent, 'fr-CA');
  assert.equal(parseVoiceDescription('mit österreichischem Akzent').accent, 'de-AT');
});

test('phrases are matched before their words, and gender-and-age words set both', () => {
  const voice = parseVoiceDescription('an old man');
  assert.deepEqual(voice.understood, [
    { word: 'old man', attribute: 'gender', value: 'male' },
    { word: 'old man', attribute: 'age', value: 'old' },
  ]);
  assert.equal(parseVoiceDescription('middle aged').age, 'adult');
  assert.equal(parseVoiceDescription('middle-aged').age, 'adult');
  const boy = parseVoiceDescription('a boy');
  assert.equal(boy.gender, 'male');
  assert.equal(boy.age, 'child');
  const kid = parseVoiceDescription('a kid');
  assert.equal(kid.gender, undefined);
  assert.equal(kid.age, 'child');
});

test('comparatives count like their base words', () => {
  const voice = parseVoiceDescription('slower, deeper, older, calmer, warmer');
  assert.deepEqual([voice.pace, voice.pitch, voice.age, voice.energy, voice.brightness], [-1, -1, 'old', -1, -1]);
  assert.equal(parseVoiceDescription('faster and higher').pitch, 1);
});

test('for gender, age and accent the last word wins and every word is listed', () => {
  const voice = parseVoiceDescription('male and female');
  assert.equal(voice.gender, 'female');
  assert.deepEqual(
    voice.understood.map((understood) => understood.value),
    ['male', 'female'],
  );
});

test('unknown words are ignored once each, in order; stop words and intensifiers are not', () => {
  const voice = parseVoiceDescription('A xylophonic pirate voice, very xylophonic and slow, with the speaker sounding slow');
  assert.deepEqual(voice.ignored, ['xylophonic', 'pirate']);
  assert.equal(voice.pace, -2);
  assert.deepEqual(parseVoiceDescription('der Sprecher, une voix, la voz, with a voice').ignored, []);
});

test('an empty or word-less description understands and ignores nothing', () => {
  assert.deepEqual(parseVoiceDescription(''), { understood: [], ignored: [] });
  assert.deepEqual(parseVoiceDescription(' ,;! '), { understood: [], ignored: [] });
});

test('the same description always gives the same result', () => {
  const description = 'A very energetic, slightly husky Irish girl, not too fast, with a bright tone';
  assert.deepEqual(parseVoiceDescription(description), parseVoiceDescription(description));
});

test('the vocabulary lists every attribute for English and pace and gender in the other languages', () => {
  for (const values of Object.values(DESCRIPTION_VOCABULARY) as Record<string, WordsByLanguage>[])
    for (const words of Object.values(values)) assert.ok(words.en?.length);
  for (const language of ['de', 'fr', 'es', 'it', 'pt', 'nl'] as const) {
    for (const words of [...Object.values(DESCRIPTION_VOCABULARY.gender), ...Object.values(DESCRIPTION_VOCABULARY.pace)])
      assert.ok(words[language]?.length, language);
  }
});
