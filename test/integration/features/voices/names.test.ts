import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { archiveManifest } from '../../../helpers/zips.js';

const SAMPLE = encodeWav({ samples: Float32Array.from({ length: 16000 }, (_, i) => Math.sin(i / 8) * 0.4), sampleRate: 16000 });

function archive(id: string, name: string): Buffer {
  const manifest = archiveManifest([{ id, name }]);
  return Buffer.from(zipSync({ 'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)), [`samples/${id}/1.wav`]: SAMPLE }));
}

describe('names people see in lists', () => {
  const fixture = inProcessWithAdmin({
    keyArgs: ['--rate-limit', 'voices:write=1000', '--rate-limit', 'voices:read=1000', '--rate-limit', 'system:read=1000'],
  });
  const call = (method: string, path: string, options: { json?: unknown; body?: Buffer; headers?: Record<string, string> }) =>
    injectRequest(fixture.server, method, path, { key: fixture.admin.key, ...options });
  const refusedField = (response: { status: number; body: any }, field: string) => {
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal(response.body.error.code, 'invalid_request');
    assert.ok(
      response.body.error.details.fields.some((problem: { field: string }) => problem.field === field),
      JSON.stringify(response.body.error.details),
    );
  };

  test('voice, category and key names and voice tags refuse NUL and other control characters, and blank names', async () => {
    const imported = await call('POST', '/api/voices/import', { body: archive('voice_named1', 'Plain name'), headers: { 'content-type': 'application/zip' } });
    assert.deepEqual(imported.body.imported, ['voice_named1']);
    for (const name of ['a\u0000b', 'line\nbreak', 'c1\u0085code', '   '])
      refusedField(await call('PUT', '/api/voices/voice_named1', { json: { name } }), 'body.name');
    refusedField(await call('PUT', '/api/voices/voice_named1', { json: { tags: ['ok', 'bell\u0007'] } }), 'body.tags.1');
    refusedField(await call('POST', '/api/categories', { json: { name: 'Stories\u0000' } }), 'body.name');
    refusedField(await call('POST', '/api/api-keys', { json: { name: 'app\u0000' } }), 'body.name');
    assert.equal((await call('GET', '/api/voices/voice_named1', {})).body.name, 'Plain name');
    assert.ok(!(await call('GET', '/api/api-keys', {})).text.includes('app\\u0000'), 'no key was stored');

    const withNul = await call('POST', '/api/voices/import', {
      body: archive('voice_named2', 'Bad\u0000name'),
      headers: { 'content-type': 'application/zip' },
    });
    assert.equal(withNul.status, 400);
    assert.equal(withNul.body.error.code, 'archive_invalid');
    assert.equal((await call('PUT', '/api/voices/voice_named1', { json: { name: 'Grandma’s “story” voice ✨' } })).status, 200, 'other characters are fine');
  });
});
