// Black-box (the service as a process): chunks stream over a real socket.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'tts:generate=1000'];
/** Flite needs a few seconds for this, so the task can be seen running while its audio arrives. */
const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `This is sentence number ${index + 1}, and the engine speaks it on its own.`).join(' ');

interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  response: http.IncomingMessage;
  /** Resolves with the first chunk of the body. */
  first: Promise<Buffer>;
  /** Resolves with the whole body. */
  whole: Promise<Buffer>;
}

/** POSTs JSON and hands back the response as soon as its head arrives, the body still coming. */
function openStream(url: string, key: string, path: string, json: unknown): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(new URL(path, url), { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      let firstChunk: (chunk: Buffer) => void = () => undefined;
      const first = new Promise<Buffer>((done) => (firstChunk = done));
      const whole = new Promise<Buffer>((done, fail) => {
        response.on('data', (chunk: Buffer) => {
          if (chunks.length === 0) firstChunk(chunk);
          chunks.push(chunk);
        });
        response.on('end', () => done(Buffer.concat(chunks)));
        response.on('error', fail);
      });
      whole.catch(() => undefined);
      resolve({ status: response.statusCode ?? 0, headers: response.headers, response, first, whole });
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(json));
  });
}

describe('streamed generation', { timeout: 120_000 }, () => {
  const fixture = serverWithAdmin({ keyArgs: LIMITS });
  const stream = (json: Record<string, unknown>) =>
    openStream(fixture.server.url, fixture.admin.key, '/api/generate/preset', { language: 'en-US', stream: true, ...json });
  const task = async (id: string) => (await request(fixture.server.url, 'GET', `/api/tasks/${id}`, { key: fixture.admin.key })).body;

  test('audio arrives while the task is still running, and the stored file is the complete audio', async () => {
    const opened = await stream({ voice_id: 'flite:slt', text: LONG_TEXT });
    assert.equal(opened.status, 200);
    assert.equal(opened.headers['transfer-encoding'], 'chunked');
    assert.equal(opened.headers['content-type'], 'audio/wav');
    const taskId = String(opened.headers['x-task-id']);
    const first = await opened.first;
    assert.equal(first.toString('latin1', 0, 4), 'RIFF');
    assert.equal((await task(taskId)).status, 'running', 'the first audio came before the synthesis ended');

    const streamed = await opened.whole;
    assert.equal(streamed.readUInt32LE(40), 0xffffffff, 'a streamed WAV says its length is unknown');
    const done = await task(taskId);
    assert.equal(done.status, 'completed');
    const stored = await fetch(`${fixture.server.url}/api/tasks/${taskId}/audio`, { headers: { 'x-api-key': fixture.admin.key } });
    const storedBytes = Buffer.from(await stored.arrayBuffer());
    assert.equal(storedBytes.readUInt32LE(40), storedBytes.length - 44, 'the stored WAV has its real length');
    const info = await probeAudio(storedBytes);
    assert.ok(info.duration !== null && Math.abs(info.duration - done.duration) < 0.01, `stored ${info.duration} s, task ${done.duration} s`);
    assert.equal(streamed.length, 44 + Math.round(done.duration * 16000) * 2, 'every sample was streamed');
    for (const stage of ['queue_ms', 'text_ms', 'engine_ms', 'encode_ms', 'store_ms']) assert.equal(typeof done.stages[stage], 'number', stage);
  });

  for (const [format, contentType] of [
    ['mp3', 'audio/mpeg'],
    ['ogg', 'audio/ogg; codecs=opus'],
    ['aac', 'audio/aac'],
    ['flac', 'audio/flac'],
  ] as const) {
    test(`${format} streams and decodes`, async () => {
      const opened = await stream({ voice_id: 'pico:en-US', text: 'Streaming works. It comes sentence by sentence.', format });
      assert.equal(opened.status, 200);
      assert.equal(opened.headers['content-type'], contentType);
      const info = await probeAudio(await opened.whole);
      assert.equal(info.channels, 1);
      const done = await task(String(opened.headers['x-task-id']));
      assert.ok(done.duration > 1.5, `${done.duration} s`);
    });
  }

  test('raw pcm streams at the rate its content type names', async () => {
    const opened = await stream({ voice_id: 'pico:en-US', text: 'Raw samples, at a rate of my choosing.', format: 'pcm', sample_rate: 24000 });
    assert.equal(opened.headers['content-type'], 'audio/pcm;rate=24000;channels=1');
    const bytes = await opened.whole;
    const done = await task(String(opened.headers['x-task-id']));
    assert.ok(Math.abs(bytes.length / 2 / 24000 - done.duration) < 0.05, `${bytes.length} bytes for ${done.duration} s`);
  });

  test('a client that disconnects cancels the synthesis', async () => {
    const opened = await stream({ voice_id: 'flite:slt', text: LONG_TEXT });
    const taskId = String(opened.headers['x-task-id']);
    await opened.first;
    opened.response.destroy();
    let status = '';
    for (let attempt = 0; attempt < 100 && status !== 'cancelled'; attempt++) {
      status = (await task(taskId)).status;
      await sleep(50);
    }
    assert.equal(status, 'cancelled');
  });

  test('a refusal before any audio is an ordinary JSON error', async () => {
    const unknown = await stream({ voice_id: 'pico:xx-XX', text: 'Hello.' });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse((await unknown.whole).toString()).error.code, 'voice_not_found');
    const both = await stream({ voice_id: 'pico:en-US', text: 'Hello.', async: true });
    assert.equal(both.status, 400);
  });
});
