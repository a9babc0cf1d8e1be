import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sayAs } from '../../../../src/platform/text/ssml/say-as.js';
import { SsmlValueError } from '../../../../src/platform/text/ssml/ssml-error.js';

/** interpret-as, format, content, language → the words said. */
const READINGS: ReadonlyArray<readonly [string, string | undefined, string, string, string]> = [
  ['characters', undefined, 'NASA', 'en', 'N A S A'],
  ['spell-out', undefined, 'ab 12', 'en', 'a b 1 2'],
  ['cardinal', undefined, '1,234', 'en', 'one thousand two hundred thirty-four'],
  ['number', undefined, '3.5', 'en', 'three point five'],
  ['cardinal', undefined, '-12', 'es', 'menos doce'],
  ['cardinal', undefined, '1.234', 'de', 'tausendzweihundertvierunddreißig'],
  ['cardinal', undefined, '42', 'ja', '42'],
  ['ordinal', undefined, '21st', 'en', 'twenty-first'],
  ['ordinal', undefined, '3.', 'de', '3.'],
  ['digits', undefined, '0042', 'en', 'zero zero four two'],
  ['digits', undefined, '123', 'fr', 'un deux trois'],
  ['digits', undefined, '123', 'ja', '1 2 3'],
  ['date', undefined, '12/25/2024', 'en-US', 'December twenty-fifth, twenty twenty-four'],
  ['date', undefined, '25/12/2024', 'en-GB', 'the twenty-fifth of December twenty twenty-four'],
  ['date', 'ymd', '2024-12-25', 'en', 'December twenty-fifth, twenty twenty-four'],
  ['date', 'md', '12-25', 'en', 'December twenty-fifth'],
  ['date', 'dm', '25.12', 'en-GB', 'the twenty-fifth of December'],
  ['date', 'my', '12/1999', 'en', 'December nineteen ninety-nine'],
  ['date', 'y', '2005', 'en', 'two thousand five'],
  ['date', 'm', '7', 'en', 'July'],
  ['date', 'd', '5', 'en', 'the fifth'],
  ['date', undefined, '25.12.2024', 'de-DE', '25. Dezember 2024'],
  ['date', 'my', '12/2024', 'fr', 'décembre 2024'],
  ['time', undefined, '15:30', 'en', 'fifteen thirty'],
  ['time', 'hms24', '15:00', 'en', 'fifteen hundred'],
  ['time', 'hms12', '9:05:07 a.m.', 'en', 'nine oh five and seven seconds a m'],
  ['time', undefined, '3:00 PM', 'en', "three o'clock p m"],
  ['time', undefined, '15:30', 'de', '15:30'],
  ['telephone', undefined, '+1 (555) 123-4567', 'en', 'plus one, five five five, one two three, four five six seven'],
  ['telephone', undefined, '030 1234567', 'de', 'null drei null, eins zwei drei vier fünf sechs sieben'],
];

test('say-as reads every interpretation in the language given', () => {
  for (const [interpretAs, format, content, language, expected] of READINGS) {
    assert.equal(sayAs(interpretAs, format, content, language), expected, `${interpretAs} ${format ?? ''} "${content}" in ${language}`);
  }
});

/** Content say-as cannot read as asked: refused, never guessed. */
const UNREADABLE: ReadonlyArray<readonly [string, string | undefined, string]> = [
  ['cardinal', undefined, 'many'],
  ['cardinal', undefined, '12,'],
  ['ordinal', undefined, 'first'],
  ['digits', undefined, '12a'],
  ['date', 'mdy', '13/01/2024'],
  ['date', 'mdy', '02/30/2024'],
  ['date', 'dmy', '2024-12'],
  ['date', 'qmd', '1/2'],
  ['time', undefined, '25:00'],
  ['time', 'hms12', '13:00'],
  ['time', 'hms36', '10:00'],
  ['telephone', undefined, 'call me'],
  ['characters', undefined, '  '],
  ['currency', undefined, '$5'],
];

test('say-as refuses content it cannot read as asked', () => {
  for (const [interpretAs, format, content] of UNREADABLE) {
    assert.throws(() => sayAs(interpretAs, format, content, 'en'), SsmlValueError, `${interpretAs} ${format ?? ''} "${content}"`);
  }
});

test('February 29th is a date only in a leap year', () => {
  assert.equal(sayAs('date', 'mdy', '02/29/2024', 'en'), 'February twenty-ninth, twenty twenty-four');
  assert.throws(() => sayAs('date', 'mdy', '02/29/2023', 'en'), SsmlValueError);
});
