import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { injectRequest, inProcessWithAdmin, mintKey, type InProcessTimbre } from '../../../helpers/in-process.js';

const LIMITS = ['--rate-limit', 'clone:create=100', '--rate-limit', 'voices:read=100', '--rate-limit', 'voices:write=100'];
const voicePath = (id: string) => `/api/voices/${encodeURIComponent(id)}`;

/** Fetches a route and answers the raw body bytes with the headers. */
async function fetchBytes(server: InProcessTimbre, method: string, path: string, key: string, json?: unknown) {
  const response = await server.fetch(new URL(path, server.url), {
    method,
    headers: { 'x-api-key': key, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('voice previews over HTTP', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const bytes = (method: string, path: string, json?: unknown) => fetchBytes(fixture.server, method, path, fixture.admin.key, json);
  const call = (method: string, path: string, json?: unknown) => injectRequest(fixture.server, method, path, { key: fixture.admin.key, json });
  const previewFiles = async () => (await readdir(join(fixture.server.dataDir, 'audio'))).filter((name) => name.startsWith('preview_'));

  let first: Buffer;

  test('a preset renders a WAV preview, then answers it from the cache', async () => {
    const before = await call('GET', voicePath('pico:en-US'));
    assert.equal(before.status, 200);
    assert.equal(before.body.preview_url, null);

    const made = await bytes('POST', `${voicePath('pico:en-US')}/generate-preview`);
    assert.equal(made.status, 200);
    assert.match(made.headers.get('content-type') ?? '', /^audio\/wav/);
    assert.equal(made.headers.get('x-voice-id'), 'pico:en-US');
    assert.equal(made.headers.get('x-preview-cached'), 'false');
    const pcm = parseWav(made.bytes);
    assert.ok(pcm.samples.length / pcm.sampleRate > 0.5, 'longer than half a second');
    assert.ok(Number(made.headers.get('x-audio-duration')) > 0.5);
    first = made.bytes;

    const again = await bytes('POST', `${voicePath('pico:en-US')}/generate-preview`, {});
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-preview-cached'), 'true');
    assert.ok(again.bytes.equals(first), 'the cached preview is the same file');
  });

  test('the voice record links the preview, which GET serves; the voice itself did not change', async () => {
    const { status, body } = await call('GET', voicePath('pico:en-US'));
    assert.equal(status, 200);
    assert.equal(body.preview_url, `/api/voices/${encodeURIComponent('pico:en-US')}/preview`);
    assert.equal(body.updated_at, body.created_at);
    const served = await bytes('GET', body.preview_url);
    assert.equal(served.status, 200);
    assert.match(served.headers.get('content-type') ?? '', /^audio\/wav/);
    assert.ok(served.bytes.equals(first));
  });

  test('a German voice previews a German sentence', async () => {
    const made = await bytes('POST', `${voicePath('pico:de-DE')}/generate-preview`);
    assert.equal(made.status, 200);
    assert.equal(made.headers.get('x-preview-cached'), 'false');
    const text = decodeURIComponent(made.headers.get('x-preview-text') ?? '');
    assert.match(text, /Stimme/);
    const english = await bytes('POST', `${voicePath('pico:en-US')}/generate-preview`);
    assert.match(decodeURIComponent(english.headers.get('x-preview-text') ?? ''), /voice/);
  });

  test('given text is spoken, replaces the cached preview, and is cached in turn', async () => {
    const made = await bytes('POST', `${voicePath('pico:en-US')}/generate-preview`, { text: 'Testing my own words.' });
    assert.equal(made.status, 200);
    assert.equal(made.headers.get('x-preview-cached'), 'false');
    assert.equal(decodeURIComponent(made.headers.get('x-preview-text') ?? ''), 'Testing my own words.');
    assert.ok(!made.bytes.equals(first));
    const served = await bytes('GET', `${voicePath('pico:en-US')}/preview`);
    assert.ok(served.bytes.equals(made.bytes), 'the newest preview is the stored one');
    const again = await bytes('POST', `${voicePath('pico:en-US')}/generate-preview`, { text: 'Testing my own words.' });
    assert.equal(again.headers.get('x-preview-cached'), 'true');
    // One file per voice: the replaced preview was removed (en-US and de-DE remain).
    assert.equal((await previewFiles()).length, 2);
  });

  test('a change of the voice invalidates its preview', async () => {
    const changed = await call('PUT', voicePath('pico:de-DE'), { tags: ['preview-test'] });
    assert.equal(changed.status, 200);
    const made = await bytes('POST', `${voicePath('pico:de-DE')}/generate-preview`);
    assert.equal(made.status, 200);
    assert.equal(made.headers.get('x-preview-cached'), 'false');
  });

  test('unknown voices, long texts and keys without clone:create are refused', async () => {
    const unknown = await call('POST', `${voicePath('pico:xx-XX')}/generate-preview`, {});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'voice_not_found');

    const none = await call('GET', `${voicePath('pico:xx-XX')}/preview`);
    assert.equal(none.status, 404);
    assert.equal(none.body.error.code, 'voice_not_found');

    const long = await call('POST', `${voicePath('pico:en-US')}/generate-preview`, { text: 'a'.repeat(301) });
    assert.equal(long.status, 413);
    assert.equal(long.body.error.code, 'text_too_long');

    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'voices:read']);
    const refused = await injectRequest(fixture.server, 'POST', `${voicePath('pico:en-US')}/generate-preview`, { key: reader.key, json: {} });
    assert.equal(refused.status, 403);
  });
});
