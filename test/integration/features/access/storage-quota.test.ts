// In-process: the quota is checked on each request that would store files, before any work starts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { sine } from '../../../helpers/audio-signals.js';
import { inProcessWithAdmin, injectMultipart, injectRequest } from '../../../helpers/in-process.js';

const MB = 1024 * 1024;
const SPEAK = { voice_id: 'pico:en-US', text: 'Storage is counted per key.', language: 'en-US', format: 'wav' };

describe('per-key storage quota', () => {
  const fixture = inProcessWithAdmin({ flags: { 'storage-quota-mb': '0' } });
  const call = (method: string, path: string, key: string, json?: unknown) => injectRequest(fixture.server, method, path, { key, json });
  const taskCount = (keyId: string) => fixture.server.services.db.prepare('SELECT count(*) AS n FROM tasks WHERE owner_key_id = ?').pluck().get(keyId);

  test('a key over its quota gets 507 storage_quota_exceeded before any task is made; reads still work; another key is unaffected; the quota is set over HTTP', async () => {
    const created = await call('POST', '/api/api-keys', fixture.admin.key, { name: 'small', storage_quota_mb: 1 });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.storage_quota_mb, 1);
    const small = { key: created.body.key, keyId: created.body.key_id };

    const first = await call('POST', '/api/generate/preset', small.key, SPEAK);
    assert.equal(first.status, 200, first.text);
    const taskId = String(first.headers['x-task-id']);
    // 1.2 MB of audio as an asset: the key now holds more than its 1 MB.
    const upload = await injectMultipart(fixture.server, small.key, '/api/assets', [{ name: 'tone.wav', bytes: encodeWav(sine(440, 40, 16_000)) }]);
    assert.equal(upload.status, 201, JSON.stringify(upload.body));

    const before = taskCount(small.keyId);
    const refused = await call('POST', '/api/generate/preset', small.key, SPEAK);
    assert.equal(refused.status, 507, refused.text);
    assert.equal(refused.body.error.code, 'storage_quota_exceeded');
    assert.equal(refused.body.error.details.quota_bytes, MB);
    assert.ok(refused.body.error.details.used_bytes > upload.body.size_bytes, JSON.stringify(refused.body.error.details));
    assert.match(refused.body.error.message, /MB/);
    assert.equal(taskCount(small.keyId), before, 'no task was made');
    const openAi = await call('POST', '/v1/audio/speech', small.key, { model: 'tts-1', voice: 'alloy', input: 'Over quota.' });
    assert.equal(openAi.status, 507, openAi.text);
    assert.equal(openAi.body.error.code, 'storage_quota_exceeded');

    const read = await call('GET', `/api/tasks/${taskId}`, small.key);
    assert.equal(read.status, 200, read.text);
    const audio = await call('GET', `/api/tasks/${taskId}/audio`, small.key);
    assert.equal(audio.status, 200);

    const other = await call('POST', '/api/generate/preset', fixture.admin.key, SPEAK);
    assert.equal(other.status, 200, other.text);

    const status = await call('GET', '/api/system/status', small.key);
    assert.equal(status.status, 200, status.text);
    const own = status.body.storage.keys.find((entry: { key_id: string }) => entry.key_id === small.keyId);
    assert.equal(own.quota_bytes, MB);
    assert.equal(own.used_bytes, refused.body.error.details.used_bytes);
    assert.equal(status.body.storage.quota_default_bytes, null);
    assert.equal(status.body.storage.keys.length, 1, 'a key sees its own line only');

    const raised = await call('PATCH', `/api/api-keys/${small.keyId}`, fixture.admin.key, { storage_quota_mb: 0 });
    assert.equal(raised.status, 200, raised.text);
    assert.equal(raised.body.storage_quota_mb, 0);
    const again = await call('POST', '/api/generate/preset', small.key, SPEAK);
    assert.equal(again.status, 200, again.text);

    const reset = await call('PATCH', `/api/api-keys/${small.keyId}`, fixture.admin.key, { storage_quota_mb: null });
    assert.equal(reset.body.storage_quota_mb, null);
    const invalid = await call('PATCH', `/api/api-keys/${small.keyId}`, fixture.admin.key, { storage_quota_mb: -1 });
    assert.equal(invalid.status, 400, invalid.text);
  });

  test('a quota counts the files of the keys its key created, so minting keys cannot multiply it', async () => {
    const parent = (await call('POST', '/api/api-keys', fixture.admin.key, { name: 'parent', storage_quota_mb: 1 })).body;
    const child = (await call('POST', '/api/api-keys', parent.key, { name: 'child' })).body;
    assert.equal(child.storage_quota_mb, null, 'the child names no quota of its own (the default here is none)');
    const upload = await injectMultipart(fixture.server, child.key, '/api/assets', [{ name: 'tone.wav', bytes: encodeWav(sine(440, 40, 16_000)) }]);
    assert.equal(upload.status, 201, JSON.stringify(upload.body));

    const fromChild = await call('POST', '/api/generate/preset', child.key, SPEAK);
    assert.equal(fromChild.status, 507, fromChild.text);
    assert.equal(fromChild.body.error.details.key_id, parent.key_id, 'refused by the quota of the key above');
    const fromParent = await call('POST', '/api/generate/preset', parent.key, SPEAK);
    assert.equal(fromParent.status, 507, 'the parent holds its child’s files too');
    assert.equal((await call('DELETE', `/api/assets/${upload.body.asset_id}`, child.key)).status, 204);
    assert.equal((await call('POST', '/api/generate/preset', child.key, SPEAK)).status, 200, 'freeing space lets work start again');
  });

  test('the API document lists 507 storage_quota_exceeded for routes that store files, not for reads or cancels', async () => {
    const document = await call('GET', '/api/openapi.json', fixture.admin.key);
    const codes = (path: string, method: string): string => document.body.paths[path][method].responses['507']?.description ?? '';
    for (const path of ['/api/generate/preset', '/api/generate/merge-chunks', '/api/assets', '/v1/audio/speech']) {
      assert.match(codes(path, 'post'), /`storage_quota_exceeded`/, path);
    }
    assert.doesNotMatch(codes('/api/tasks/{task_id}', 'get'), /storage_quota_exceeded/);
    assert.doesNotMatch(codes('/api/generation/cancel', 'post'), /storage_quota_exceeded/);
  });
});
