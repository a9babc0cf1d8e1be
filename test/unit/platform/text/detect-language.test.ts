import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage } from '../../../../src/platform/text/detect-language.js';

/** Short sentences (mostly 4–8 words, a few of 3) → their language: what a dialogue line looks like. */
const SENTENCES: ReadonlyArray<readonly [string, string]> = [
  ['en', 'The weather is nice today.'],
  ['en', 'Can you help me with this?'],
  ['en', 'Please close the door behind you.'],
  ['en', 'What time is it?'],
  ['es', '¿Dónde está la estación de tren?'],
  ['es', 'Mi hermano vive en Madrid.'],
  ['es', 'Necesito comprar pan y leche.'],
  ['fr', "Il fait très beau aujourd'hui."],
  ['fr', 'Nous allons au cinéma ce soir.'],
  ['fr', 'Le chat dort sur le canapé.'],
  ['de', 'Ich weiß nicht, was ich tun soll.'],
  ['de', 'Der Hund schläft in der Küche.'],
  ['de', 'Wie spät ist es?'],
  ['it', 'Non so cosa fare adesso.'],
  ['it', 'Il gatto dorme sul divano.'],
  ['it', 'Ho bisogno di pane e latte.'],
  ['pt', 'Não sei o que fazer agora.'],
  ['pt', 'Ela fala rápido demais para mim.'],
  ['pt', 'Que horas são?'],
  ['zh', '今天天气很好。'],
  ['zh', '你叫什么名字？'],
  ['zh', '我们明天去北京。'],
  ['ja', '今日はいい天気ですね。'],
  ['ja', 'お名前は何ですか？'],
  ['ja', '明日東京に行きます。'],
];

test('short sentences in eight languages are detected, reliably', () => {
  const wrong = SENTENCES.filter(([language, text]) => {
    const detected = detectLanguage(text);
    return detected.language !== language || !detected.reliable;
  });
  assert.deepEqual(wrong, []);
});

test('the answer is a BCP 47 primary subtag with a confidence between 0 and 1', () => {
  const detected = detectLanguage('Der Hund schläft in der Küche.');
  assert.equal(detected.language, 'de');
  assert.ok(detected.confidence > 0.5 && detected.confidence <= 1, String(detected.confidence));
});

test('candidates restrict the answer', () => {
  // Portuguese text, but only Spanish and Italian voices: the closer of the two wins.
  assert.equal(detectLanguage('Não sei o que fazer agora.', { candidates: ['es', 'it'] }).language, 'es');
  // Region subtags are accepted and reduced to the primary subtag.
  assert.equal(detectLanguage('Não sei o que fazer agora.', { candidates: ['en-US', 'pt-BR'] }).language, 'pt');
  const english = detectLanguage('The weather is nice today.', { candidates: ['fr'] });
  assert.equal(english.language, 'fr');
  assert.equal(english.reliable, false, 'a forced answer the detector does not back is not reliable');
  assert.equal(detectLanguage('Il gatto dorme sul divano.', { candidates: [] }).language, 'it', 'an empty list restricts nothing');
});

test('candidates that include the real language keep it reliable', () => {
  const detected = detectLanguage('Il gatto dorme sul divano.', { candidates: ['it', 'es', 'pt'] });
  assert.deepEqual([detected.language, detected.reliable], ['it', true]);
});

test('CJK text is decided by script', () => {
  assert.deepEqual(detectLanguage('はい'), { language: 'ja', confidence: 1, reliable: true }, 'kana is Japanese however short');
  assert.deepEqual(detectLanguage('コーヒー'), { language: 'ja', confidence: 1, reliable: true });
  assert.deepEqual(detectLanguage('안녕하세요'), { language: 'ko', confidence: 1, reliable: true });
  assert.equal(detectLanguage('我们明天去北京。').language, 'zh');
  assert.equal(detectLanguage('OK、わかりました。').language, 'ja', 'mostly kana with a Latin word');
});

test('a few Han characters alone are Chinese, unless only Japanese is allowed, and not reliable', () => {
  assert.deepEqual(detectLanguage('東京駅'), { language: 'zh', confidence: 0.9, reliable: false });
  assert.equal(detectLanguage('東京駅', { candidates: ['ja', 'en'] }).language, 'ja');
  assert.equal(detectLanguage('東京駅', { fallback: 'ja' }).language, 'ja');
});

test('CJK text whose script language is not a candidate is not forced onto another script', () => {
  assert.deepEqual(detectLanguage('今日はいい天気ですね。', { candidates: ['en', 'zh'] }), { language: 'en', confidence: 0, reliable: false });
  assert.equal(detectLanguage('今日はいい天気ですね。', { candidates: ['en'], fallback: 'de' }).language, 'de');
});

test('a CJK name inside a Latin sentence leaves it to the detector', () => {
  assert.equal(detectLanguage('I flew to 東京 yesterday with my friend.').language, 'en');
});

test('one or two words are not reliable and give the fallback', () => {
  for (const text of ['Hotel', 'Hello world', 'Taxi', 'Bis morgen.']) {
    assert.equal(detectLanguage(text).reliable, false, text);
    assert.deepEqual(detectLanguage(text, { fallback: 'it' }), { language: 'it', confidence: 0, reliable: false }, text);
  }
});

test('the fallback keeps the detector score when it agrees with the guess', () => {
  const detected = detectLanguage('Bis morgen.', { fallback: 'de-AT' });
  assert.equal(detected.language, 'de');
  assert.ok(detected.confidence > 0);
});

test('without a fallback an unreliable guess is still the best guess', () => {
  const detected = detectLanguage('Bis morgen.');
  assert.deepEqual([detected.language, detected.reliable], ['de', false]);
});

test('text without letters is undetermined', () => {
  assert.deepEqual(detectLanguage(''), { language: 'und', confidence: 0, reliable: false });
  assert.deepEqual(detectLanguage('123 !?'), { language: 'und', confidence: 0, reliable: false });
  assert.equal(detectLanguage('...', { fallback: 'fr' }).language, 'fr');
  assert.equal(detectLanguage('...', { candidates: ['pt', 'es'] }).language, 'pt');
});
