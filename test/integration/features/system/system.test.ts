import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { removeDir } from '../../../helpers/timbre.js';

describe('system endpoints and HTTP protections', () => {
  const fixture = inProcessWithAdmin({ flags: { 'max-body-bytes': '2048' } });

  const get = (path: string, headers: Record<string, string> = {}) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key, headers });

  test('GET /api/system/stats reports CPU load overall and per core, memory and GPUs', async () => {
    const { status, body } = await get('/api/system/stats');
    assert.equal(status, 200);
    assert.equal(typeof body.cpu.load_percent, 'number');
    assert.ok(body.cpu.cores.length >= 1);
    assert.equal(typeof body.cpu.cores[0].load_percent, 'number');
    assert.equal(body.cpu.load_average.length, 3);
    assert.ok(body.memory.total_bytes > 0);
    assert.ok(body.memory.used_bytes > 0 && body.memory.used_bytes <= body.memory.total_bytes);
    assert.ok(Array.isArray(body.gpus));
  });

  test('GET /api/system/info reports OS, CPU, memory, GPUs, versions, engines and models', async () => {
    const { status, body } = await get('/api/system/info');
    assert.equal(status, 200);
    assert.equal(body.os.platform, 'linux');
    assert.ok(body.cpu.model.length > 0);
    assert.ok(body.cpu.cores >= 1);
    assert.ok(body.memory.total_bytes > 0);
    assert.equal(body.versions.node, process.versions.node);
    assert.match(body.versions.timbre, /^\d+\.\d+\.\d+/);
    assert.ok(Array.isArray(body.gpus));
    assert.ok(Array.isArray(body.engines));
    assert.ok(Array.isArray(body.models));
  });

  test('GET /api/system/status reports uptime, disk, database and process', async () => {
    const { status, body } = await get('/api/system/status');
    assert.equal(status, 200);
    assert.equal(body.status, 'ok');
    assert.ok(body.uptime_seconds >= 0);
    assert.equal(body.data_dir.path, fixture.server.dataDir);
    assert.ok(body.data_dir.free_bytes > 0 && body.data_dir.free_bytes <= body.data_dir.total_bytes);
    assert.equal(body.database.ok, true);
    assert.equal(body.database.journal_mode, 'wal');
    assert.ok(body.database.schema_version >= 1);
    assert.ok(body.process.rss_bytes > 0);
  });

  test('GET /api/system/gpu lists GPUs or says why there are none', async () => {
    const { status, body } = await get('/api/system/gpu');
    assert.equal(status, 200);
    assert.ok(Array.isArray(body.gpus));
    if (body.gpus.length === 0) assert.match(body.reason, /\w/);
    else assert.equal(body.reason, null);
  });

  test('a foreign Host header is refused; loopback names are accepted', async () => {
    for (const host of ['evil.example.com', 'attacker.test:8765', '192.168.1.10:8765']) {
      const response = await get('/api/system/gpu', { host });
      assert.equal(response.status, 403, host);
      assert.equal(response.body.error.code, 'host_not_allowed');
    }
    // In-process there is no port of its own: the default one stands for it.
    for (const host of ['localhost:8765', '127.0.0.1:8765', '[::1]:8765', 'app.localhost']) {
      assert.equal((await get('/api/system/gpu', { host })).status, 200, host);
    }
  });

  test('unknown routes under /api answer 404 in the envelope; a wrong method 405 with Allow', async () => {
    const missing = await get('/api/does-not-exist');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'not_found');
    const wrongMethod = await injectRequest(fixture.server, 'PUT', '/api/system/stats', { key: fixture.admin.key });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.body.error.code, 'method_not_allowed');
    assert.match(String(wrongMethod.headers.allow), /GET/);
  });

  test('bodies over the configured limit get 413, non-JSON bodies 415, broken JSON 400', async () => {
    const big = await injectRequest(fixture.server, 'POST', '/api/api-keys', { key: fixture.admin.key, json: { name: 'x'.repeat(4000) } });
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'payload_too_large');
    const text = await injectRequest(fixture.server, 'POST', '/api/api-keys', {
      key: fixture.admin.key,
      body: 'name',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.error.code, 'unsupported_media_type');
    const broken = await injectRequest(fixture.server, 'POST', '/api/api-keys', {
      key: fixture.admin.key,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, 'invalid_json');
    assert.deepEqual(broken.body.error.details, {}, 'every envelope has details, empty when there is nothing to add');
  });

  test('no CORS headers are sent unless origins are configured', async () => {
    const response = await get('/api/system/gpu', { origin: 'https://example.com' });
    assert.equal(response.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS allow-list', () => {
  const fixture = inProcessWithAdmin({ flags: { 'cors-origins': 'https://app.example' } });

  test('only configured origins get CORS headers, and preflights name the API key header', async () => {
    const get = (origin: string) => injectRequest(fixture.server, 'GET', '/api/system/gpu', { key: fixture.admin.key, headers: { origin } });
    assert.equal((await get('https://app.example')).headers['access-control-allow-origin'], 'https://app.example');
    assert.equal((await get('https://evil.example')).headers['access-control-allow-origin'], undefined);
    const preflight = await injectRequest(fixture.server, 'OPTIONS', '/api/system/gpu', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    assert.equal(preflight.status, 204);
    assert.match(String(preflight.headers['access-control-allow-headers']), /x-api-key/);
  });

  test('preflights allow every method the API uses, so PUT, PATCH and DELETE routes work from an allowed origin', async () => {
    const preflight = await injectRequest(fixture.server, 'OPTIONS', '/api/api-keys/key_x', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    assert.equal(preflight.status, 204);
    const methods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/);
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) assert.ok(methods.includes(method), `${method} in ${methods.join(', ')}`);
  });
});

describe('engines and models in /api/system/info', () => {
  const modelsDir = join(tmpdir(), `timbre-corrupt-models-${process.pid}`);
  before(async () => {
    await mkdir(join(modelsDir, 'silero-vad'), { recursive: true });
    await writeFile(join(modelsDir, 'silero-vad', 'silero_vad.onnx'), randomBytes(2_327_524));
  });
  after(() => removeDir(modelsDir));
  const fixture = inProcessWithAdmin({ flags: { 'models-dir': modelsDir } });

  test('built-in engines are available; a corrupt model is reported, not loaded, and the server keeps answering', async () => {
    const { status, body } = await injectRequest(fixture.server, 'GET', '/api/system/info', { key: fixture.admin.key });
    assert.equal(status, 200);
    const engine = (id: string) => body.engines.find((entry: { id: string }) => entry.id === id);
    for (const id of ['pico', 'espeak', 'festival', 'flite', 'rhvoice', 'pocketsphinx', 'acoustic-voiceprint']) assert.equal(engine(id).available, true, id);
    assert.equal(engine('silero-vad').available, false);
    assert.match(engine('silero-vad').reason, /silero_vad\.onnx/);
    assert.equal(engine('kokoro').neural, true);
    const [model] = body.models;
    assert.equal(model.name, 'silero-vad');
    assert.equal(model.license, 'MIT');
    assert.ok(model.size_bytes > 0);
    assert.equal((await injectRequest(fixture.server, 'GET', '/api/system/status', { key: fixture.admin.key })).status, 200);
  });
});
