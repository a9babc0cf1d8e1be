import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inProcessWithAdmin, injectRequest, mintKey } from '../../../helpers/in-process.js';

const RULES = [
  { grapheme: 'NASA', alias: 'National Aeronautics and Space Administration' },
  { grapheme: 'tomato', case_sensitive: true, whole_word: false, phonemes: 'təˈmɑːtoʊ', alphabet: 'ipa' },
  { grapheme: 'Dr. <Who> & "co"', phonemes: 'dQkt@r hu:', alphabet: 'x-sampa' },
];

const STORED = [
  { grapheme: 'NASA', case_sensitive: false, whole_word: true, alias: 'National Aeronautics and Space Administration' },
  { grapheme: 'tomato', case_sensitive: true, whole_word: false, phonemes: 'təˈmɑːtoʊ', alphabet: 'ipa' },
  { grapheme: 'Dr. <Who> & "co"', case_sensitive: false, whole_word: true, phonemes: 'dQkt@r hu:', alphabet: 'x-sampa' },
];

/** A lexicon of `count` lexemes, one grapheme and alias each. */
function lexiconOf(count: number): string {
  const lexemes = Array.from({ length: count }, (_, index) => `<lexeme><grapheme>w${index}</grapheme><alias>word ${index}</alias></lexeme>`);
  return `<?xml version="1.0"?><lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">${lexemes.join('')}</lexicon>`;
}

describe('pronunciation dictionaries', () => {
  const fixture = inProcessWithAdmin({ flags: { 'pronunciation-max-rules': '50' } });
  const call = (method: string, path: string, json?: unknown, key = fixture.admin.key) => injectRequest(fixture.server, method, path, { key, json });
  const pls = (method: string, path: string, body: string, key = fixture.admin.key, type = 'application/pls+xml') =>
    injectRequest(fixture.server, method, path, { key, body, headers: { 'content-type': type } });

  test('a dictionary is created, read, listed without its rules, changed and deleted', async () => {
    const created = await call('POST', '/api/pronunciations', { name: 'Space', language: 'en-US', rules: RULES });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.rules, STORED);
    assert.equal(created.body.rule_count, 3);
    const id = created.body.id;

    const listed = await call('GET', '/api/pronunciations');
    const summary = listed.body.dictionaries.find((dictionary: { id: string }) => dictionary.id === id);
    assert.equal(summary.rule_count, 3);
    assert.equal(summary.rules, undefined);

    const renamed = await call('PUT', `/api/pronunciations/${id}`, { name: 'Space terms', rules: [RULES[0]] });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Space terms');
    assert.deepEqual(renamed.body.rules, [STORED[0]]);

    assert.equal((await call('DELETE', `/api/pronunciations/${id}`)).status, 204);
    const gone = await call('GET', `/api/pronunciations/${id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'pronunciation_not_found');
  });

  test('bad rules are refused naming the rule, and a language must be a BCP 47 tag', async () => {
    const both = await call('POST', '/api/pronunciations', { name: 'x', language: 'en', rules: [RULES[0], { grapheme: 'a', alias: 'b', phonemes: 'c' }] });
    assert.equal(both.status, 400);
    assert.match(JSON.stringify(both.body.error.details), /body\.rules\.1"/);
    const blank = await call('POST', '/api/pronunciations', { name: 'x', language: 'en', rules: [{ grapheme: '   ', alias: 'b' }] });
    assert.equal(blank.status, 400);
    assert.match(JSON.stringify(blank.body.error.details), /body\.rules\.0\.grapheme/);
    const language = await call('POST', '/api/pronunciations', { name: 'x', language: 'not a language', rules: [] });
    assert.equal(language.status, 400);
  });

  test('reading needs voices:read, changing voices:write; a key sees its own dictionaries and those of the keys beneath it', async () => {
    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'voices:read']);
    assert.equal((await call('POST', '/api/pronunciations', { name: 'x', language: 'en', rules: [] }, reader.key)).status, 403);
    assert.equal((await call('GET', '/api/pronunciations', undefined, reader.key)).status, 200);

    const child = await call('POST', '/api/api-keys', { name: 'child' });
    const mine = await call('POST', '/api/pronunciations', { name: 'Child words', language: 'en', rules: [RULES[0]] }, child.body.key);
    assert.equal(mine.status, 201);
    const above = await call('POST', '/api/pronunciations', { name: 'Admin words', language: 'en', rules: [] });
    assert.equal((await call('GET', `/api/pronunciations/${mine.body.id}`)).status, 200, 'the admin above it sees it');
    assert.equal((await call('GET', `/api/pronunciations/${above.body.id}`, undefined, child.body.key)).status, 404);
    assert.equal((await call('DELETE', `/api/pronunciations/${above.body.id}`, undefined, child.body.key)).status, 404);
    assert.equal((await call('GET', `/api/pronunciations/${mine.body.id}`, undefined, reader.key)).status, 404, 'another root key does not see it');
    const childList = await call('GET', '/api/pronunciations', undefined, child.body.key);
    assert.deepEqual(
      childList.body.dictionaries.map((dictionary: { id: string }) => dictionary.id),
      [mine.body.id],
    );
  });

  test('a dictionary goes out as PLS and comes back in with the same rules', async () => {
    const created = await call('POST', '/api/pronunciations', { name: 'Round/trip', language: 'en-GB', rules: RULES });
    const exported = await injectRequest(fixture.server, 'GET', `/api/pronunciations/${created.body.id}`, {
      key: fixture.admin.key,
      headers: { accept: 'application/pls+xml' },
    });
    assert.equal(exported.status, 200);
    assert.match(String(exported.headers['content-type']), /application\/pls\+xml/);
    assert.match(String(exported.headers['content-disposition']), /attachment; filename=.*\.pls/);
    assert.equal((await call('GET', `/api/pronunciations/${created.body.id}?format=pls`)).text, exported.text);

    const imported = await pls('POST', '/api/pronunciations?name=Again', exported.text);
    assert.equal(imported.status, 201, imported.text);
    assert.equal(imported.body.name, 'Again');
    assert.equal(imported.body.language, 'en-GB');
    assert.deepEqual(imported.body.rules, STORED);

    const replaced = await pls('PUT', `/api/pronunciations/${imported.body.id}`, lexiconOf(2), fixture.admin.key, 'text/xml');
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.name, 'Again');
    assert.deepEqual(
      replaced.body.rules.map((rule: { grapheme: string }) => rule.grapheme),
      ['w0', 'w1'],
    );
    const unnamed = await pls('POST', '/api/pronunciations', lexiconOf(1), fixture.admin.key, 'application/xml');
    assert.equal(unnamed.body.name, 'Imported lexicon');
  });

  test('bad PLS is a 400 with its place, and too many rules a 413, as JSON or PLS', async () => {
    const malformed = await pls(
      'POST',
      '/api/pronunciations',
      '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" xml:lang="en">\n<lexeme>',
    );
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'invalid_pls');
    assert.equal(typeof malformed.body.error.details.line, 'number');
    const bomb = `<?xml version="1.0"?><!DOCTYPE lexicon [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${lexiconOf(1)}`;
    assert.equal((await pls('POST', '/api/pronunciations', bomb)).body.error.code, 'invalid_pls');

    const tooMany = await pls('POST', '/api/pronunciations', lexiconOf(51));
    assert.equal(tooMany.status, 413);
    assert.equal(tooMany.body.error.code, 'dictionary_too_large');
    const rules = Array.from({ length: 51 }, (_, index) => ({ grapheme: `w${index}`, alias: 'x' }));
    const json = await call('POST', '/api/pronunciations', { name: 'x', language: 'en', rules });
    assert.equal(json.status, 413);
    assert.equal(json.body.error.code, 'dictionary_too_large');
  });

  test('a body of 100,000 rules is refused with a 4xx, and the service keeps answering', async () => {
    const rules = Array.from({ length: 100_000 }, (_, index) => ({ grapheme: `w${index}`, alias: 'x' }));
    const [json, plsBody] = await Promise.all([
      call('POST', '/api/pronunciations', { name: 'x', language: 'en', rules }),
      pls('POST', '/api/pronunciations', lexiconOf(100_000)),
    ]);
    assert.equal(json.status, 413);
    assert.equal(plsBody.status, 413);
    assert.equal((await call('GET', '/api/pronunciations')).status, 200);
  });
});

describe('default dictionaries of voices and projects', () => {
  const fixture = inProcessWithAdmin({ flags: { 'pronunciation-max-dictionaries': '3' } });
  const call = (method: string, path: string, json?: unknown, key = fixture.admin.key) => injectRequest(fixture.server, method, path, { key, json });
  const dictionary = async (name: string, key = fixture.admin.key): Promise<string> =>
    (await call('POST', '/api/pronunciations', { name, language: 'en', rules: [{ grapheme: name, alias: `${name} said` }] }, key)).body.id;

  test('a project and a voice keep their defaults; synthesis applies the request’s, then the project’s, then the voice’s, each once', async () => {
    const [mine, projects, voices] = [await dictionary('mine'), await dictionary('project'), await dictionary('voice')];
    const project = await call('POST', '/api/projects', { name: 'With words', pronunciation_ids: [projects, voices] });
    assert.equal(project.status, 201, project.text);
    assert.deepEqual(project.body.pronunciation_ids, [projects, voices]);
    const voice = await call('PUT', '/api/voices/pico:en-US', { pronunciation_ids: [voices] });
    assert.equal(voice.status, 200, voice.text);
    assert.deepEqual((await call('GET', '/api/voices/pico:en-US')).body.pronunciation_ids, [voices]);

    const applied = fixture.server.services.pronunciations.dictionariesFor(
      { request: [mine], projectId: project.body.project_id, voiceId: 'pico:en-US' },
      fixture.admin.key_id,
    );
    assert.deepEqual(
      applied.map((entry) => entry.id),
      [mine, projects, voices],
    );
    assert.deepEqual(applied[0]!.rules, [{ grapheme: 'mine', caseSensitive: false, wholeWord: true, alias: 'mine said' }]);

    assert.equal((await call('DELETE', `/api/pronunciations/${voices}`)).status, 204);
    assert.deepEqual(
      (await call('GET', `/api/projects/${project.body.project_id}`)).body.pronunciation_ids,
      [projects],
      'a deleted dictionary leaves the defaults',
    );
    assert.deepEqual((await call('GET', '/api/voices/pico:en-US')).body.pronunciation_ids, []);
  });

  test('defaults must be dictionaries the caller sees, and no more than the maximum', async () => {
    const stranger = mintKey(fixture.server, 'stranger', ['--scopes', 'voices:write,voices:read']);
    const theirs = await dictionary('theirs', stranger.key);
    const project = await call('POST', '/api/projects', { name: 'x' });
    const invisible = await call('PUT', `/api/projects/${project.body.project_id}`, { pronunciation_ids: [theirs] });
    assert.equal(invisible.status, 404);
    assert.equal(invisible.body.error.code, 'pronunciation_not_found');
    assert.equal((await call('PUT', '/api/voices/pico:en-GB', { pronunciation_ids: [theirs] })).body.error.code, 'pronunciation_not_found');

    const many = [await dictionary('a'), await dictionary('b'), await dictionary('c'), await dictionary('d')];
    const tooMany = await call('PUT', `/api/projects/${project.body.project_id}`, { pronunciation_ids: many });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.code, 'too_many_dictionaries');
    assert.throws(
      () => fixture.server.services.pronunciations.dictionariesFor({ request: [theirs] }, fixture.admin.key_id),
      (error: { code?: string }) => error.code === 'pronunciation_not_found',
    );
  });
});
