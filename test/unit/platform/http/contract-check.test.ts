import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContractChecker } from '../../../../src/platform/http/contract-check.js';

const envelope = { $ref: '#/components/schemas/ErrorEnvelope' };
const document = {
  openapi: '3.1.0',
  components: {
    schemas: {
      ErrorEnvelope: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code', 'message', 'details'], properties: { code: { type: 'string' } } } },
      },
    },
  },
  paths: {
    '/api/things/{id}': {
      get: {
        responses: {
          200: {
            description: 'The thing',
            headers: { 'X-Thing-Size': { schema: { type: 'integer' } } },
            content: {
              'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
              'audio/wav': { schema: { type: 'string', format: 'binary' } },
            },
          },
          404: { description: 'Not Found: `thing_not_found`', content: { 'application/json': { schema: envelope } } },
        },
      },
      delete: { responses: { 204: { description: 'Deleted' } } },
    },
  },
};

const checker = new ContractChecker(document);
const json = (value: unknown) => ({ present: true, text: JSON.stringify(value) });
const get = { method: 'GET', route: '/api/things/:id' };
const reply = (status: number, contentType: string, body: { present: boolean; text?: string }, headers: string[] = []) => ({
  status,
  contentType,
  body,
  headers,
});

describe('contract check', () => {
  test('a response the document describes has no problems', () => {
    assert.deepEqual(checker.check(get, reply(200, 'application/json; charset=utf-8', json({ id: 'a' }), ['x-thing-size', 'content-length'])), []);
    assert.deepEqual(checker.check(get, reply(200, 'audio/wav', { present: true })), []);
    // A thing that records a failure is a success answer: its error field is data, not an error code to list.
    assert.deepEqual(checker.check(get, reply(200, 'application/json', json({ id: 'a', error: { code: 'interrupted' } }))), []);
    assert.deepEqual(checker.check(get, reply(404, 'application/json', json({ error: { code: 'thing_not_found', message: 'No', details: {} } }))), []);
  });

  test('an undocumented status, route or content type is a violation', () => {
    assert.deepEqual(checker.check(get, reply(500, 'application/json', json({}))), ['status 500 is not documented']);
    assert.deepEqual(checker.check({ method: 'POST', route: '/api/things/:id' }, reply(200, 'application/json', json({}))), [
      'POST /api/things/{id} is not in the document',
    ]);
    assert.match(checker.check(get, reply(200, 'audio/mpeg', { present: true })).join(), /content type audio\/mpeg is not documented/);
  });

  test('a JSON body that breaks its schema names the field', () => {
    assert.deepEqual(checker.check(get, reply(200, 'application/json', json({ id: 3 }))), ['body/id must be string']);
    assert.deepEqual(checker.check(get, reply(404, 'application/json', json({ error: { code: 'x', message: 'm' } }))), [
      "body/error must have required property 'details'",
      'error code x is not documented for this status (thing_not_found)',
    ]);
  });

  test('a custom header must be declared, and a 204 carries no body whatever the handler passed', () => {
    assert.deepEqual(checker.check(get, reply(200, 'application/json', json({ id: 'a' }), ['x-secret'])), ['header x-secret is not declared']);
    assert.deepEqual(checker.check({ method: 'DELETE', route: '/api/things/:id' }, reply(204, 'application/json', { present: true, text: 'null' })), []);
  });

  test('an error that names a folder of the server is a violation', () => {
    const guarded = new ContractChecker(document, ['/srv/timbre-data']);
    const leak = json({ error: { code: 'thing_not_found', message: 'No /srv/timbre-data/things/a.wav', details: {} } });
    assert.deepEqual(guarded.check(get, reply(404, 'application/json', leak)), ['the error names the server path /srv/timbre-data']);
    const clean = json({ error: { code: 'thing_not_found', message: 'No thing a', details: {} } });
    assert.deepEqual(guarded.check(get, reply(404, 'application/json', clean)), []);
  });
});
