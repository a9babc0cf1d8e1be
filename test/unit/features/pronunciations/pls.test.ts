import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { readPls } from '../../../../src/features/pronunciations/pls-read.js';
import { plsDocument } from '../../../../src/features/pronunciations/pls-write.js';
import { storedRules } from '../../../../src/features/pronunciations/rules.js';
import type { StoredRule } from '../../../../src/features/pronunciations/schemas.js';

/** A lexicon shaped like the example of Azure's custom lexicon documentation: a schema location, aliases, phonemes, several graphemes, an emoji. */
const AZURE_STYLE = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0"
      xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xsi:schemaLocation="http://www.w3.org/2005/01/pronunciation-lexicon
        http://www.w3.org/TR/2007/CR-pronunciation-lexicon-20071212/pls.xsd"
      alphabet="ipa" xml:lang="en-US">
  <lexeme>
    <grapheme>BTW</grapheme>
    <alias>By the way</alias>
  </lexeme>
  <lexeme>
    <grapheme> Benigni </grapheme>
    <phoneme> bɛˈniːnji</phoneme>
  </lexeme>
  <lexeme>
    <grapheme>Scotland MV</grapheme>
    <grapheme>ScotlandMV</grapheme>
    <alias>Scotland Media Wave</alias>
  </lexeme>
  <lexeme>
    <grapheme>😀</grapheme>
    <alias>test emoji</alias>
  </lexeme>
</lexicon>`;

const stored = (document: string, maxRules = 5000) => {
  const lexicon = readPls(document, maxRules);
  return { language: lexicon.language, rules: storedRules(lexicon.rules, maxRules, { kind: 'pls', lines: lexicon.lines }) };
};

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected a refusal');
}

test('a lexicon like Azure’s example imports every grapheme of every lexeme as a rule', () => {
  const plain = { case_sensitive: false, whole_word: true };
  assert.deepEqual(stored(AZURE_STYLE), {
    language: 'en-US',
    rules: [
      { grapheme: 'BTW', ...plain, alias: 'By the way' },
      { grapheme: 'Benigni', ...plain, phonemes: 'bɛˈniːnji', alphabet: 'ipa' },
      { grapheme: 'Scotland MV', ...plain, alias: 'Scotland Media Wave' },
      { grapheme: 'ScotlandMV', ...plain, alias: 'Scotland Media Wave' },
      { grapheme: '😀', ...plain, alias: 'test emoji' },
    ],
  });
});

test('rules go out as PLS and come back the same, case and whole-word matching included', () => {
  const rules: StoredRule[] = [
    { grapheme: 'A&B <"quoted">', case_sensitive: true, whole_word: false, alias: 'A and B' },
    { grapheme: 'tomato', case_sensitive: false, whole_word: true, phonemes: 't@"mA:t@U', alphabet: 'x-sampa' },
    { grapheme: "it's", case_sensitive: false, whole_word: false, phonemes: 'ɪts', alphabet: 'ipa' },
  ];
  const document = plsDocument({ language: 'en-GB', rules });
  assert.deepEqual(stored(document), { language: 'en-GB', rules });
});

test('a lexeme says its preferred pronunciation, else its first; a phoneme’s own alphabet wins over the lexicon’s', () => {
  const document = `<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
    <lexeme><grapheme>read</grapheme><phoneme>riːd</phoneme><phoneme prefer="true" alphabet="x-sampa">rEd</phoneme></lexeme>
    <lexeme><grapheme>live</grapheme><phoneme>lɪv</phoneme><phoneme>laɪv</phoneme><example>live music</example></lexeme>
  </lexicon>`;
  assert.deepEqual(
    stored(document).rules.map((rule) => ('phonemes' in rule ? [rule.phonemes, rule.alphabet] : [])),
    [
      ['rEd', 'x-sampa'],
      ['lɪv', 'ipa'],
    ],
  );
});

test('a document type declaration is refused, so no entity is ever expanded', () => {
  const bomb = `<?xml version="1.0"?>
<!DOCTYPE lexicon [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en"><lexeme><grapheme>&c;</grapheme><alias>x</alias></lexeme></lexicon>`;
  const error = refusal(() => readPls(bomb, 5000));
  assert.equal(error.code, 'invalid_pls');
  assert.equal(error.details.line, 2);
});

test('bad documents are refused with their line and column', () => {
  const cases = [
    '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en"><lexeme>',
    '<speak version="1.0">hello</speak>',
    '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-microsoft-ups" xml:lang="en"></lexicon>',
    '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en"><lexeme><grapheme>x</grapheme></lexeme></lexicon>',
    '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en"><lexeme><grapheme>x</grapheme><sound>y</sound></lexeme></lexicon>',
  ];
  for (const document of cases) {
    const error = refusal(() => stored(document));
    assert.equal(error.code, 'invalid_pls', document);
    assert.equal(typeof error.details.line, 'number');
  }
});

test('a lexicon of 100,000 lexemes is refused with 413 at the first rule too many', () => {
  const lexemes = Array.from({ length: 100_000 }, (_, index) => `<lexeme><grapheme>w${index}</grapheme><alias>word</alias></lexeme>`).join('\n');
  const document = `<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">\n${lexemes}\n</lexicon>`;
  const error = refusal(() => readPls(document, 5000));
  assert.equal(error.statusCode, 413);
  assert.equal(error.code, 'dictionary_too_large');
});
