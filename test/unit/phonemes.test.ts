import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cmuPhones } from '../../src/platform/text/phonemes/cmu.js';
import { espeakMnemonics } from '../../src/platform/text/phonemes/espeak.js';
import { ipaFromXSampa } from '../../src/platform/text/phonemes/x-sampa.js';
import { wordOfSounds } from '../../src/platform/text/phonemes/spoken-word.js';
import type { Phonemes } from '../../src/platform/text/ssml/segments.js';

const ipa = (value: string) => ({ alphabet: 'ipa' as const, value });
const xsampa = (value: string) => ({ alphabet: 'x-sampa' as const, value });
const cmu = (value: Phonemes) =>
  cmuPhones(value)
    .map(({ phone, stress }) => `${phone}${stress ?? ''}`)
    .join(' ');

describe('X-SAMPA', () => {
  test('reads into IPA, longest symbol first', () => {
    assert.equal(ipaFromXSampa('t@"meItoU'), 'təˈmeɪtoʊ');
    assert.equal(ipaFromXSampa('%Ekspl@"neIS@n'), 'ˌɛkspləˈneɪʃən');
    assert.equal(ipaFromXSampa('bO~Zu:R'), 'bɔ̃ʒuːʁ');
    assert.equal(ipaFromXSampa('r\\`'), 'ɻ');
    assert.equal(ipaFromXSampa('t_hOm'), 'tʰɔm');
  });
});

describe('eSpeak NG mnemonics', () => {
  test('English: stress marks, long vowels as phonemes of their own, slashes of a transcription dropped', () => {
    assert.equal(espeakMnemonics(ipa('/təˈmeɪtoʊ/'), 'en-US'), "t@'meItoU");
    assert.equal(espeakMnemonics(xsampa('t@"meItoU'), 'en-GB'), "t@'meItoU");
    assert.equal(espeakMnemonics(ipa('ˈθɔːt ˈdʒʌdʒ ˈmɛʒɚ ˈɹɪŋ'), 'en'), "'TO:t 'dZVdZ 'mEZ3 'rIN");
    assert.equal(espeakMnemonics(ipa('ˈpitsːa'), 'en-US'), "'pi:tsa");
    assert.equal(espeakMnemonics(ipa('[tə.ˈmɑ.ɹoʊ]'), 'en-US'), "t@'mA:roU");
  });

  test('German, French, Spanish and Italian use their own phonemes', () => {
    assert.equal(espeakMnemonics(ipa('ˈʃøːn ɪç ˈʏbɐ'), 'de-DE'), "'SY:n IC 'yb3");
    assert.equal(espeakMnemonics(ipa('bɔ̃ʒuʁ œ̃ vɛ̃'), 'fr-FR'), 'bO~Zur W~ vE~');
    assert.equal(espeakMnemonics(ipa('ˈpero ˈkaɾo maˈɲana'), 'es'), "'peRo 'karo ma'n^ana");
    assert.equal(espeakMnemonics(ipa('ˈpitsːa ˈfiʎʎo'), 'it'), "'pits:a 'fil^l^o");
  });

  test('a sound eSpeak lacks becomes the nearest one; nothing convertible gives nothing', () => {
    assert.equal(espeakMnemonics(ipa('ɐ'), 'en'), '@');
    assert.equal(espeakMnemonics(ipa('˥˩'), 'en'), '');
  });
});

describe('CMU phones (Festival, Flite)', () => {
  test('vowels carry the stress of their syllable', () => {
    assert.equal(cmu(ipa('təˈmeɪtoʊ')), 't ax0 m ey1 t ow0');
    assert.equal(cmu(xsampa('h@"loU "w3`ld')), 'hh ax0 l ow1 w er1 l d');
    assert.equal(cmu(ipa('ˌʌndɚˈstænd')), 'ah2 n d er0 s t ae1 n d');
  });

  test('sounds outside English become the nearest English phone', () => {
    assert.equal(cmu(ipa('ˈbax')), 'b aa1 k');
    assert.equal(cmu(ipa('ʁy')), 'r uw0');
    assert.equal(cmu(ipa('˥˩')), '');
  });
});

describe('the word of a phoneme run', () => {
  test('spans its first sound to its last', () => {
    assert.deepEqual(
      wordOfSounds(' xyzzy ', [
        { start: 0.1, end: 0.2 },
        { start: 0.2, end: 0.45 },
      ]),
      [{ word: 'xyzzy', start: 0.1, end: 0.45 }],
    );
    assert.deepEqual(wordOfSounds('xyzzy', []), []);
  });
});
