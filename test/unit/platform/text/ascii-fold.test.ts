import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiFold } from '../../../../src/platform/text/ascii-fold.js';

test('accents are removed from letters', () => {
  assert.equal(asciiFold('café naïve Ångström façade über'), 'cafe naive Angstrom facade uber');
});

test('typographic quotes, dashes and ellipses become their ASCII forms', () => {
  assert.equal(asciiFold('\u201CHi\u201D, \u2018yes\u2019 \u00ABnon\u00BB'), '"Hi", \'yes\' "non"');
  assert.equal(asciiFold('1\u20135, \u22125 and left\u2014fast\u2026'), '1-5, -5 and left - fast...');
});

test('letters without a decomposition are spelled the usual ASCII way', () => {
  assert.equal(asciiFold('Straße, Œuvre, smørrebrød, Łódź, Þór'), 'Strasse, OEuvre, smorrebrod, Lodz, Thor');
});

test('compatibility forms decompose: ligatures, full-width letters, superscripts', () => {
  assert.equal(asciiFold('\uFB01ne \uFF21\uFF22 m\u00B2'), 'fine AB m2');
});

test('non-breaking spaces become spaces and scripts without ASCII letters are dropped', () => {
  assert.equal(asciiFold('a\u00A0b Привет 你好 c'), 'a b   c');
});

test('symbols that are words get spoken', () => {
  assert.equal(asciiFold('5°, 3€'), '5 degrees , 3 euros ');
});

test('plain ASCII, including control characters like newlines, is unchanged', () => {
  const ascii = 'He said "don\'t" <tags> & -5 degrees.\nNext line\t!';
  assert.equal(asciiFold(ascii), ascii);
});
