import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin, mintKey } from '../../../helpers/in-process.js';

describe('POST /api/text/split', () => {
  const fixture = inProcessWithAdmin({ keyArgs: ['--rate-limit', 'audio:process=1000'] });

  const split = (json: unknown, key = fixture.admin.key) => injectRequest(fixture.server, 'POST', '/api/text/split', { key, json });

  test('answers the sentences with their offsets and paragraph ends', async () => {
    const text = 'Dr. Smith paid $4.50. Then he left!\n\n«Oui», dit-il.';
    const { status, body } = await split({ text });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      sentences: [
        { index: 0, text: 'Dr. Smith paid $4.50.', start: 0, end: 21, paragraph_end: false },
        { index: 1, text: 'Then he left!', start: 22, end: 35, paragraph_end: true },
        { index: 2, text: '«Oui», dit-il.', start: 37, end: 51, paragraph_end: true },
      ],
      count: 3,
      language: 'en',
    });
    for (const sentence of body.sentences) assert.equal(text.slice(sentence.start, sentence.end), sentence.text);
  });

  test('uses the rules of the language given and echoes it', async () => {
    const { status, body } = await split({ text: 'Er kam z. B. am 3. Oktober. Dann ging er.', language: 'de-DE' });
    assert.equal(status, 200);
    assert.equal(body.language, 'de-DE');
    assert.deepEqual(
      body.sentences.map((s: { text: string }) => s.text),
      ['Er kam z. B. am 3. Oktober.', 'Dann ging er.'],
    );
  });

  test('cuts sentences longer than max_chars at clause boundaries', async () => {
    const text = 'We walked along the river for hours, talking about the summer; then we went home and slept until noon.';
    const { status, body } = await split({ text, max_chars: 40 });
    assert.equal(status, 200);
    assert.deepEqual(
      body.sentences.map((s: { text: string }) => s.text),
      ['We walked along the river for hours,', 'talking about the summer;', 'then we went home and slept until noon.'],
    );
  });

  test('refuses invalid bodies with invalid_request', async () => {
    for (const json of [
      {},
      { text: '' },
      { text: 'x'.repeat(100_001) },
      { text: 'Hi.', max_chars: 19 },
      { text: 'Hi.', max_chars: 5001 },
      { text: 'Hi.', language: 'english!' },
      { text: 'Hi.', extra: true },
    ]) {
      const { status, body } = await split(json);
      assert.equal(status, 400, JSON.stringify(json).slice(0, 80));
      assert.equal(body.error.code, 'invalid_request');
    }
  });

  test('needs the audio:process scope', async () => {
    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'system:read']);
    const { status, body } = await split({ text: 'Hi.' }, reader.key);
    assert.equal(status, 403);
    assert.equal(body.error.code, 'insufficient_scope');
    assert.equal(body.error.details.required_scope, 'audio:process');
    assert.equal((await injectRequest(fixture.server, 'POST', '/api/text/split', { json: { text: 'Hi.' } })).status, 401);
  });
});
