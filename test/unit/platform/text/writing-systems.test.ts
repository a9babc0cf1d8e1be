import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keepScripts, scriptOf, scriptsOf } from '../../../../src/platform/text/writing-systems.js';

test('the scripts of a text are those of its letters and digits, in order, shared characters left out', () => {
  assert.deepEqual(scriptsOf('Hello Ελληνικά 中文 こんにちは Привет مرحبا, 42 😀!'), ['Latin', 'Greek', 'Han', 'Hiragana', 'Cyrillic', 'Arabic']);
  assert.deepEqual(scriptsOf('١٢٣ 123 — ー'), ['Arabic']);
  assert.deepEqual(scriptsOf('!? 42 😀 \u200d'), []);
  assert.equal(scriptOf('ᚠ'), 'other');
  assert.equal(scriptOf('7'), 'Common');
});

test('letters and digits of other scripts become one space per run, with their marks; shared characters stay', () => {
  assert.equal(keepScripts('abcΕλληνικάdef中文ghi', ['Latin']), 'abc def ghi');
  assert.equal(keepScripts('Ω\u0301x é\u0302 ١٢٣ 42!', ['Latin']), ' x é\u0302 42!');
  assert.equal(keepScripts('Hello Ελληνικά 中文 world.\nПривет\nBye', ['Latin']), 'Hello world.\n \nBye');
  assert.equal(keepScripts('東京タワー、1958年。Привет', ['Han', 'Hiragana', 'Katakana', 'Latin']), '東京タワー、1958年。 ');
  const latin = 'Ça va? Straße, naïve café — 3.14 $ ™ 😀';
  assert.equal(keepScripts(latin, ['Latin']), latin);
});
