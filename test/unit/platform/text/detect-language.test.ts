import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { detectLanguage, loadLanguageDetector, preferredLanguage, SWITCH_MIN_LETTERS } from '../../../../src/platform/text/detect-language.js';

before(() => loadLanguageDetector());

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

/** The languages of the built-in voices (eSpeak NG, Pico, RHVoice, Flite, Festival, Open JTalk). */
const BUILT_IN = [
  'en',
  'fr',
  'de',
  'it',
  'es',
  'ja',
  'ar',
  'pt',
  'bg',
  'ca',
  'hr',
  'cs',
  'da',
  'nl',
  'fi',
  'el',
  'he',
  'hi',
  'hu',
  'id',
  'ko',
  'zh',
  'nb',
  'pl',
  'ro',
  'ru',
  'sk',
  'sv',
  'tr',
  'uk',
  'vi',
];
const english = (text: string) => preferredLanguage(text, { preferred: 'en-US', candidates: BUILT_IN });

/** English a speech API is sent: short, or naming people, places and dishes of other languages. */
const ENGLISH_WITH_NAMES = [
  'Hello from Timbre.',
  'Hello',
  'OK.',
  'Anna and Marco',
  'Call 555 0142',
  'Ciao Bella Pizzeria opens at 9',
  'Maria Rossi',
  'Pasta al dente',
  'Bonjour Marie said hello',
  'Welcome, Giovanni',
  'Giuseppe Verdi composed La Traviata in 1853.',
  'Next stop: Piazza San Marco.',
  'Tiramisu, panna cotta and gelato for dessert.',
  'Volkswagen Golf GTI for sale.',
  'Wi-Fi password: Timbre2024.',
  'Sushi, sashimi and tempura.',
  'Emma, Olivia, Ava and Isabella.',
  'Giovanni and Francesca live in Bologna.',
  'We had lunch at Trattoria da Mario.',
  'Antonio Banderas starred in Desperado.',
  'La Sagrada Familia is in Barcelona.',
  'The Louvre is on the Rue de Rivoli.',
  'Fräulein Schneider lives upstairs.',
  'Visit Lago di Como and Lago Maggiore.',
  'Michelangelo Buonarroti was born in Caprese.',
  'Your package from Amazon Prime has arrived at the front desk.',
];

/** Everyday sentences of 20 letters and more. */
const OTHER_LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ['de', 'Das Wetter ist heute sehr schön.'],
  ['de', 'Der Zug hat zehn Minuten Verspätung.'],
  ['de', 'Vielen Dank für Ihre Geduld.'],
  ['de', 'Morgen fahren wir nach München.'],
  ['fr', 'Le chat dort sur le canapé.'],
  ['fr', 'Nous partons en vacances demain matin.'],
  ['fr', 'Le train part à huit heures.'],
  ['fr', 'Je ne sais pas quoi faire.'],
  ['es', 'Me gustaría reservar una mesa para dos.'],
  ['es', 'Mi hermano vive en Madrid.'],
  ['it', 'Buongiorno, come sta oggi?'],
  ['it', 'Il treno parte alle otto.'],
  ['pt', 'Não sei o que fazer agora.'],
  ['nl', 'Mijn broer woont in Amsterdam.'],
  ['pl', 'Cześć! To jest krótka próbka mojego głosu.'],
  ['sv', 'Hej! Det här är ett kort smakprov på min röst.'],
  ['tr', 'Merhaba! Bu, sesimin kısa bir örneğidir.'],
];

test('English with foreign names, and a few words of anything, stay in the preferred language', () => {
  const moved = ENGLISH_WITH_NAMES.map((text) => [text, english(text)]).filter(([, language]) => language !== 'en');
  assert.deepEqual(moved, []);
  // Short of SWITCH_MIN_LETTERS, even a clear foreign phrase is not enough.
  for (const text of ['Danke schön!', 'Merci beaucoup !', 'Grazie mille!', 'Wo ist der Bahnhof?']) {
    assert.ok((text.match(/\p{L}/gu) ?? []).length < SWITCH_MIN_LETTERS, text);
    assert.equal(english(text), 'en', text);
  }
});

test('a sentence of normal length in another language goes to that language', () => {
  const wrong = OTHER_LANGUAGES.filter(([language, text]) => english(text) !== language);
  assert.deepEqual(wrong, []);
});

test('a text written in a script the preferred language is not goes to a language of that script, however short', () => {
  assert.equal(english('Привет, как дела?'), 'ru');
  assert.equal(english('Γεια σας!'), 'el');
  assert.equal(english('はい'), 'ja');
  assert.equal(english('안녕하세요'), 'ko');
  assert.equal(english('今日はいい天気ですね。'), 'ja');
  assert.equal(english('你好！这是我声音的简短试听。'), 'zh');
  assert.equal(english('नमस्ते! यह मेरी आवाज़ का एक छोटा सा नमूना है।'), 'hi');
  // Only among the candidates: nothing of that script is offered, so the preferred language stays.
  assert.equal(preferredLanguage('Привет, как дела?', { preferred: 'en', candidates: ['en', 'de'] }), 'en');
  // And the other way round: Latin text for a voice of another script that also speaks English.
  assert.equal(preferredLanguage('OK', { preferred: 'ru', candidates: ['ru', 'en'] }), 'en');
});

test('any preferred language is kept the same way, and only candidates are chosen', () => {
  const german = { preferred: 'de-DE', candidates: ['de', 'en', 'fr'] };
  assert.equal(preferredLanguage('Hello from Timbre.', german), 'de');
  assert.equal(preferredLanguage('Good morning, how are you today? The weather is lovely.', german), 'en');
  assert.equal(preferredLanguage('Buongiorno, come sta oggi?', german), 'de', 'Italian is not a candidate');
  assert.equal(preferredLanguage('Buongiorno, come sta oggi?', { preferred: 'de', candidates: [] }), 'it', 'no candidates: any language');
  assert.equal(preferredLanguage('', german), 'de');
  assert.equal(preferredLanguage('123 456', german), 'de');
});
