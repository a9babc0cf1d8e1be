import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../../../src/platform/config.js';
import { normalizeText } from '../../../../src/platform/text/normalize.js';
import { estimateSpeechSeconds } from '../../../../src/platform/speech/speech-length.js';

const ENGLISH = [
  'The old lighthouse stood at the edge of the harbor for more than a century.',
  'Every evening the keeper climbed the narrow stairs, lit the lamp, and watched the ships come home.',
  'Fishermen said that on clear nights the beam could be seen from the far side of the bay.',
];
const JAPANESE = [
  '古い灯台は百年以上も港の端に立っていた。',
  '毎晩、灯台守は狭い階段を上り、明かりをともして、船が帰ってくるのを見守った。',
  '漁師たちは、晴れた夜には湾の向こう側からでも光が見えると言っていた。',
];

/** At most `length` characters of the sentences, repeated. */
function prose(sentences: readonly string[], length: number, separator: string): string {
  let text = '';
  for (let index = 0; ; index++) {
    const next = (text ? text + separator : '') + sentences[index % sentences.length]!;
    if ([...next].length > length) return text;
    text = next;
  }
}

const digits = (count: number) => Array.from({ length: count }, (_, index) => String((index * 7 + 3) % 10)).join('');
const estimate = (text: string, language: string) => estimateSpeechSeconds(normalizeText(text, language), language);
const DEFAULT_BOUND = loadConfig({}).maxAudioSeconds;

test('prose is estimated near what the built-in voices say (measured: English 91–123 s for 2,000 characters, Japanese 122 s for 600)', () => {
  const english = estimate(prose(ENGLISH, 2000, ' '), 'en-US');
  assert.ok(english > 95 && english < 135, `${english} s`);
  const japanese = estimate(prose(JAPANESE, 600, ''), 'ja');
  assert.ok(japanese > 100 && japanese < 145, `${japanese} s`);
});

test('text that expands is estimated as it is spoken: digits one by one, symbols by name', () => {
  // Measured: Open JTalk 0.51 s a digit; eSpeak NG and Pico 0.28–0.30 s a digit of English, read as words.
  assert.ok(estimate(digits(200), 'ja') > 90, 'Japanese digits');
  assert.ok(estimate(digits(500), 'en-US') > 125, 'English digits');
  // Runs of punctuation are cut to three, as the engines cut them: 2,000 dots say little.
  assert.ok(estimate('.'.repeat(2000), 'en-US') < 2);
  assert.ok(estimate('a # b % c & d @ e', 'en-US') > estimate('a b c d e', 'en-US') + 1.5);
});

test('the default bound lets a normal 5,000-character text through and refuses 5,000 digits', () => {
  assert.ok(estimate(prose(ENGLISH, 5000, ' '), 'en-US') / 0.3 < DEFAULT_BOUND, 'English at speed 0.3');
  assert.ok(estimate(prose(JAPANESE, 5000, ''), 'ja') < DEFAULT_BOUND, 'Japanese at normal speed');
  assert.ok(estimate(digits(5000), 'ja') > DEFAULT_BOUND, 'Japanese digits');
  assert.ok(estimate(digits(5000), 'en-US') > DEFAULT_BOUND, 'English digits');
});
