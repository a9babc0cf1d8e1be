import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { heardByPocketSphinx } from '../../../helpers/speech-measures.js';
import { HEARD_BY_RECOGNIZER, speak } from './families.js';

/**
 * "NASA" said as "National Aeronautics and Space Administration", once through SSML's `sub` and
 * once through a pronunciation dictionary rule, is heard by PocketSphinx as those words in every
 * English built-in family. The recognizer slips on a word now and then ("aeronautics" most), so
 * the three words it hears reliably on synthetic speech must be there.
 */

const ALIAS = 'National Aeronautics and Space Administration';
const SENTENCE = 'We watched NASA today.';
const MUST_HEAR = ['national', 'space', 'administration'];

function assertHeard(heard: string, how: string): void {
  const words = heard.toLowerCase().split(/\s+/);
  const missing = MUST_HEAR.filter((word) => !words.includes(word));
  assert.deepEqual(missing, [], `${how}: heard "${heard}"`);
}

describe('sub alias and a dictionary rule are both heard as the words they stand for', () => {
  const fixture = inProcessWithAdmin();
  let dictionaryId = '';

  before(async () => {
    const created = await injectRequest(fixture.server, 'POST', '/api/pronunciations', {
      key: fixture.admin.key,
      json: { name: 'Acronyms', language: 'en', rules: [{ grapheme: 'NASA', case_sensitive: true, whole_word: true, alias: ALIAS }] },
    });
    assert.equal(created.status, 201, created.text);
    dictionaryId = (created.body as { id: string }).id;
  });

  for (const family of HEARD_BY_RECOGNIZER) {
    test(`${family.name}: <sub> and the dictionary rule`, async () => {
      const bySub = await speak(fixture, family, `<speak>We watched <sub alias="${ALIAS}">NASA</sub> today.</speak>`);
      assertHeard(await heardByPocketSphinx(bySub), `${family.name} with <sub>`);
      const byRule = await speak(fixture, family, SENTENCE, { pronunciation_ids: [dictionaryId] });
      assertHeard(await heardByPocketSphinx(byRule), `${family.name} with the dictionary`);
    });
  }
});
