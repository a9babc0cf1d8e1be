// Black-box (the service as a process): raw bytes on a socket reach the HTTP parser (malformed request lines, oversized headers).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { request, serverWithAdmin, type Response } from '../../../helpers/timbre.js';

const UPLOAD_ROUTES = ['/api/clone/create', '/api/clone/create-multi', '/api/clone/create-clips', '/api/assets', '/api/audio-duration', '/api/transcribe'];

/** Bytes straight onto a connection, for requests an HTTP client would refuse to send; the raw answer. */
function raw(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.write(payload));
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
    setTimeout(() => socket.destroy(), 3000).unref();
  });
}

function envelopeOf(answer: string): { status: number; error: { code: string; message: string; details: Record<string, unknown> } } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  return { status, error: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error };
}

describe('bad input gets a clear 4xx in the envelope, never a 5xx', () => {
  const fixture = serverWithAdmin();
  const call = (method: string, path: string, options: { json?: unknown; body?: string; headers?: Record<string, string> } = {}) =>
    request(fixture.server.url, method, path, { key: fixture.admin.key, ...options });
  const refused = (response: Response, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.equal(response.body.error.code, code, response.text);
    assert.equal(typeof response.body.error.message, 'string');
  };

  test('number strings that coerce to infinities or beyond ±2^53 are refused naming the field', async () => {
    const speech = { voice_id: 'pico:en-US', text: 'Hello.', language: 'en-US' };
    for (const [path, json, field] of [
      ['/api/generate/preset', { ...speech, sample_rate: 'Infinity' }, 'body.sample_rate'],
      ['/api/generate/preset', { ...speech, speed: 'Infinity' }, 'body.speed'],
      ['/api/text/split', { text: 'One. Two.', max_chars: 'Infinity' }, 'body.max_chars'],
      ['/api/api-keys', { name: 'never stored', rate_limits: { 'system:read': '-Infinity' } }, 'body.rate_limits.system:read'],
    ] as const) {
      const response = await call('POST', path, { json });
      refused(response, 400, 'invalid_request');
      assert.ok(
        response.body.error.details.fields.some((problem: { field: string }) => problem.field === field),
        response.text,
      );
    }
    assert.ok(!(await call('GET', '/api/api-keys')).text.includes('never stored'), 'the refused key was not stored');
    for (const query of ['offset=99999999999999999999', 'limit=1e999', 'offset=-Infinity'])
      refused(await call('GET', `/api/voices?${query}`), 400, 'invalid_request');
  });

  test('JSON nested past TIMBRE_MAX_JSON_DEPTH (64) is 400 json_too_deep on routes with and without a body schema; at the limit it is read', async () => {
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const json = { 'content-type': 'application/json' };
    const keyId = (await call('POST', '/api/api-keys', { json: { name: 'nested' } })).body.key_id as string;
    // No body schema: the number guard walked these recursively and overflowed the stack (500).
    const schemaless = ['/api/favorites/pico:en-US', `/api/api-keys/${keyId}/revoke`, '/api/voices/import', '/api/voices/import/preview', '/api/assets'];
    for (const path of [...schemaless, '/api/generate/preset', '/api/text/split', '/v1/audio/speech']) {
      for (const body of [arrays(5000), objects(5000), arrays(65), `{"text":${arrays(100_000)}}`]) {
        const response = await call('POST', path, { body, headers: json });
        assert.equal(response.status, 400, `${path}: ${response.text.slice(0, 200)}`);
        assert.equal(response.body.error.code, 'json_too_deep', response.text.slice(0, 200));
      }
    }
    refused(await call('POST', '/api/text/split', { body: `{"text":${arrays(65)}}`, headers: json }), 400, 'json_too_deep');
    assert.deepEqual((await call('POST', '/api/text/split', { body: objects(5000), headers: json })).body.error.details, { max_depth: 64 });
    // At the limit the body is read, and the route answers it as it answers any other.
    refused(await call('POST', '/api/text/split', { body: `{"text":${arrays(63)}}`, headers: json }), 400, 'invalid_request');
    assert.equal((await call('POST', '/api/favorites/pico:en-US', { body: arrays(64), headers: json })).status, 200);
    // A form field read as JSON is held to the same limit.
    const form = `--b\r\nContent-Disposition: form-data; name="regions"\r\n\r\n${arrays(5000)}\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nx\r\n--b--\r\n`;
    refused(
      await call('POST', '/api/clone/create-clips', { body: form, headers: { 'content-type': 'multipart/form-data; boundary=b' } }),
      400,
      'json_too_deep',
    );
  });

  test('upload routes without any body, and text with NUL characters', async () => {
    // A route with a schema per content type validates nothing when no body comes at all.
    for (const path of UPLOAD_ROUTES) {
      if (path === '/api/assets') refused(await call('POST', path), 415, 'unsupported_media_type');
      else refused(await call('POST', path), 400, 'invalid_request');
    }
    const spoken = await call('POST', '/api/generate/preset', { json: { voice_id: 'pico:en-US', text: 'a\u0000b \u001b[31m red', language: 'en-US' } });
    assert.equal(spoken.status, 200, 'control characters are read as spaces');
  });

  test('malformed multipart on every upload route is 400 invalid_multipart', async () => {
    const truncated = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nabc';
    for (const path of UPLOAD_ROUTES) {
      refused(await call('POST', path, { body: 'xx', headers: { 'content-type': 'multipart/form-data' } }), 400, 'invalid_multipart');
      refused(await call('POST', path, { body: truncated, headers: { 'content-type': 'multipart/form-data; boundary=b' } }), 400, 'invalid_multipart');
    }
  });

  test('a file that is not audio is refused without server paths or tool output', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nnot audio at all\r\n--b--\r\n';
    const response = await call('POST', '/api/assets', { body, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    refused(response, 415, 'audio_unreadable');
    assert.ok(!response.text.includes(fixture.server.dataDir) && !response.text.includes('/tmp'), response.text);
  });

  test('errors before routing use the envelope, and a foreign Host is still refused first', async () => {
    const key = fixture.admin.key;
    const badUrl = envelopeOf(await raw(fixture.server.url, `GET /api/voices/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`));
    assert.deepEqual([badUrl.status, badUrl.error.code], [400, 'invalid_url']);
    const foreign = envelopeOf(await raw(fixture.server.url, 'GET /api/voices/%E0%A4%A HTTP/1.1\r\nHost: evil.example\r\n\r\n'));
    assert.deepEqual([foreign.status, foreign.error.code], [403, 'host_not_allowed']);
    const longParameter = envelopeOf(
      await raw(fixture.server.url, `GET /api/voices/${'a'.repeat(600)} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`),
    );
    assert.deepEqual([longParameter.status, longParameter.error.code], [414, 'uri_too_long']);
    const bigHeaders = envelopeOf(await raw(fixture.server.url, `GET /api/voices HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    assert.deepEqual([bigHeaders.status, bigHeaders.error.code], [431, 'headers_too_large']);
    const notHttp = envelopeOf(await raw(fixture.server.url, 'GARBAGE\r\n\r\n'));
    assert.deepEqual([notHttp.status, notHttp.error.code], [400, 'malformed_request']);
    refused(await call('GET', '/ws'), 426, 'upgrade_required');
  });
});
