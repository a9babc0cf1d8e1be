import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { injectRequest, inProcessWithAdmin, mintKey } from '../../../helpers/in-process.js';
import type { CreatedKey } from '../../../helpers/timbre.js';

interface VoiceEntry {
  id: string;
  kind: string;
  voice_id: string;
  engine: string;
  gender: string | null;
}

describe('/v1 models, voices, keys and limits through the official OpenAI SDK', { timeout: 120_000 }, () => {
  const fixture = inProcessWithAdmin();
  const client = (apiKey: string) => new OpenAI({ baseURL: `${fixture.server.url}/v1`, fetch: fixture.server.fetch, apiKey, maxRetries: 0 });
  let readOnly: CreatedKey;
  let oncePerMinute: CreatedKey;

  before(async () => {
    readOnly = mintKey(fixture.server, 'voices only', ['--scopes', 'voices:read']);
    oncePerMinute = mintKey(fixture.server, 'one speech a minute', ['--rate-limit', 'tts:generate=1']);
  });

  test('models.list() names the OpenAI ids that resolve here and the installed engines; models.retrieve() one of them', async () => {
    const ids: string[] = [];
    for await (const model of client(fixture.admin.key).models.list()) {
      assert.equal(model.object, 'model');
      assert.equal(model.owned_by, 'timbre');
      assert.ok(Number.isInteger(model.created));
      ids.push(model.id);
    }
    for (const id of ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'pico', 'espeak', 'whisper-1', 'gpt-4o-transcribe', 'pocketsphinx'])
      assert.ok(ids.includes(id), id);
    assert.ok(!ids.includes('kokoro'), 'an engine without its model is not listed');
    const model = await client(fixture.admin.key).models.retrieve('whisper-1');
    assert.deepEqual({ id: model.id, object: model.object, owned_by: model.owned_by }, { id: 'whisper-1', object: 'model', owned_by: 'timbre' });
    const missing = await client(fixture.admin.key)
      .models.retrieve('gpt-9')
      .catch((error: unknown) => error);
    assert.ok(missing instanceof OpenAI.NotFoundError, String(missing));
    assert.equal(missing.code, 'model_not_found');
  });

  test('/v1/audio/voices: every OpenAI name with the voice it speaks with, then the Timbre voices', async () => {
    const { voices } = await client(fixture.admin.key).get<{ voices: VoiceEntry[] }>('/audio/voices');
    const named = voices.filter((voice) => voice.kind === 'openai');
    assert.equal(named.length, 13);
    const byName = new Map(named.map((voice) => [voice.id, voice]));
    assert.equal(byName.get('nova')?.gender, 'female');
    assert.equal(byName.get('onyx')?.gender, 'male');
    assert.ok(voices.some((voice) => voice.id === 'pico:en-US' && voice.kind === 'preset'));
    const picoOnly = await client(fixture.admin.key).get<{ voices: VoiceEntry[] }>('/audio/voices', { query: { model: 'pico' } });
    assert.ok(picoOnly.voices.filter((voice) => voice.kind === 'openai').every((voice) => voice.engine === 'pico'));
  });

  test('a wrong key raises AuthenticationError, on every /v1 route', async () => {
    for (const call of [
      () => client('tmb_wrong').models.list(),
      () => client('tmb_wrong').audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello.' }),
    ]) {
      const refused = await call().catch((error: unknown) => error);
      assert.ok(refused instanceof OpenAI.AuthenticationError, String(refused));
      assert.equal(refused.code, 'invalid_api_key');
      assert.equal(refused.type, 'authentication_error');
    }
  });

  test('a key without the route’s scope raises PermissionDeniedError', async () => {
    const refused = await client(readOnly.key)
      .audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello.' })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.PermissionDeniedError, String(refused));
    assert.equal(refused.code, 'insufficient_scope');
    assert.ok((await client(readOnly.key).models.retrieve('tts-1')).id === 'tts-1', 'voices:read is enough for models');
  });

  test('an exhausted limit raises RateLimitError with Retry-After', async () => {
    const first = await client(oncePerMinute.key).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Once.' });
    await first.arrayBuffer();
    const refused = await client(oncePerMinute.key)
      .audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Twice.' })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.RateLimitError, String(refused));
    assert.ok(Number(refused.headers?.get('retry-after')) >= 1);
    assert.equal(refused.type, 'rate_limit_error');
  });

  test('Authorization: Bearer works on /api routes too, and X-API-Key still does', async () => {
    const bearer = await injectRequest(fixture.server, 'GET', '/api/voices?limit=1', { headers: { authorization: `Bearer ${fixture.admin.key}` } });
    assert.equal(bearer.status, 200);
    const header = await injectRequest(fixture.server, 'GET', '/api/voices?limit=1', { key: fixture.admin.key });
    assert.equal(header.status, 200);
    const missing = await injectRequest(fixture.server, 'GET', '/api/voices?limit=1', { headers: { authorization: 'Basic abc' } });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'missing_api_key');
    assert.deepEqual(Object.keys(missing.body.error).sort(), ['code', 'details', 'message'], '/api keeps its own envelope');
  });

  test('an unknown /v1 path answers 404 in OpenAI’s shape', async () => {
    const unknown = await injectRequest(fixture.server, 'GET', '/v1/audio/nothing', { key: fixture.admin.key });
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body.error).sort(), ['code', 'details', 'message', 'param', 'type']);
  });
});
