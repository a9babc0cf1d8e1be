import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorType, openAiResponses, paramOf, toOpenAiError } from '../../../../src/features/openai/errors.js';
import { withErrors } from '../../../../src/platform/http/responses.js';

describe('errors in OpenAI’s shape', () => {
  test('the type follows the status the way OpenAI’s SDKs pick their classes', () => {
    assert.equal(errorType(400), 'invalid_request_error');
    assert.equal(errorType(401), 'authentication_error');
    assert.equal(errorType(403), 'permission_error');
    assert.equal(errorType(404), 'invalid_request_error');
    assert.equal(errorType(429), 'rate_limit_error');
    assert.equal(errorType(503), 'server_error');
  });

  test('param names the field as the client sent it, or the field a code is about, or null', () => {
    assert.equal(paramOf('invalid_request', { fields: [{ field: 'body.input', message: 'is too long' }] }), 'input');
    assert.equal(paramOf('invalid_request', { fields: [{ field: 'body.voice.id', message: 'is required' }] }), 'voice.id');
    assert.equal(paramOf('invalid_request', { fields: [{ field: 'body', message: 'is required' }] }), null);
    assert.equal(paramOf('voice_not_found', { voice_id: 'x' }), 'voice');
    assert.equal(paramOf('model_not_found', {}), 'model');
    assert.equal(paramOf('rate_limited', { scope: 'tts:generate' }), null);
  });

  test('the envelope keeps Timbre’s code and details beside OpenAI’s fields', () => {
    assert.deepEqual(toOpenAiError(404, { code: 'voice_not_found', message: 'No voice x', details: { voice_id: 'x' } }), {
      error: { message: 'No voice x', type: 'invalid_request_error', param: 'voice', code: 'voice_not_found', details: { voice_id: 'x' } },
    });
  });

  test('a route’s error statuses answer OpenAI’s envelope, with their codes; successes are kept', () => {
    const success = { description: 'OK' };
    const responses = openAiResponses(withErrors({ 200: success }, { 404: ['model_not_found'] }));
    assert.equal(responses[200], success);
    assert.deepEqual(responses[404], { $ref: 'OpenAIErrorEnvelope', description: 'Not Found: `model_not_found`' });
    assert.match(JSON.stringify(responses[401]), /"\$ref":"OpenAIErrorEnvelope"/);
  });
});
