import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rhvoiceVoiceInfo, rhvoiceWordTimings, voiceLicense } from '../../../../src/platform/engines/rhvoice.js';

const COPYRIGHT = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/

Files: *
Copyright: 2010-2022 Olga Yakovleva
License: LGPL-2.1+

Files: data/*
Copyright: 2012 Olga Yakovleva
License: LGPL-2.1+

Files: data/voices/evgeniy-eng/*
       data/voices/evgeniy-rus/*
Copyright: 2019 Evgeniy
License: CC-BY-NC-ND-4.0
`;

describe('RHVoice voices', () => {
  test("a voice's license is its own stanza's, else the one for all data", () => {
    assert.equal(voiceLicense(COPYRIGHT, 'evgeniy-eng'), 'CC-BY-NC-ND-4.0');
    assert.equal(voiceLicense(COPYRIGHT, 'evgeniy-rus'), 'CC-BY-NC-ND-4.0');
    assert.equal(voiceLicense(COPYRIGHT, 'slt'), 'LGPL-2.1+');
    assert.equal(voiceLicense('', 'slt'), null);
  });

  test('a voice is named by its language and country, with its gender', () => {
    const info = rhvoiceVoiceInfo({ name: 'Evgeniy-Eng', language: 'en', country: 'US', gender: 'male' }, 24000, 'CC-BY-NC-ND-4.0');
    assert.deepEqual([info.id, info.language, info.gender, info.name], ['rhvoice:evgeniy-eng', 'en-US', 'male', 'RHVoice Evgeniy-Eng (US English, male)']);
    assert.equal(rhvoiceVoiceInfo({ name: 'Spomenka', language: 'eo', country: null, gender: 'unknown' }, 24000, null).language, 'eo');
  });

  test('word events point at UTF-8 bytes; the words come back as written, without their punctuation', () => {
    const text = 'Héllo wörld, cats!';
    const words = rhvoiceWordTimings(
      text,
      [
        { position: 0, length: 6, start: 0, end: 2400 },
        { position: 7, length: 7, start: 2400, end: 4800 },
        { position: 15, length: 5, start: 6000, end: 9600 },
      ],
      24000,
    );
    assert.deepEqual(words, [
      { word: 'Héllo', start: 0, end: 0.1 },
      { word: 'wörld', start: 0.1, end: 0.2 },
      { word: 'cats', start: 0.25, end: 0.4 },
    ]);
  });
});
