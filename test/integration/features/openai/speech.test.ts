// Black-box (the service as a process): the body streams over a real socket (first chunk before the end, a client that leaves mid-stream).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { Stream } from 'openai/streaming';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { request, serverWithAdmin, tempDir } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const SENTENCES = 'Hello from Timbre. This answer comes sentence by sentence.';
/** Long enough that Flite is still speaking when the first sentence has arrived. */
const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `This is sentence number ${index + 1}, and the engine speaks it on its own.`).join(' ');

/** What ffprobe reads in raw 16-bit mono at 24 kHz: it has no header to say so. */
async function pcmSeconds(bytes: Buffer): Promise<number> {
  const dir = await tempDir('timbre-pcm-');
  const file = join(dir, 'speech.pcm');
  try {
    await writeFile(file, bytes);
    const args = ['-v', 'error', '-f', 's16le', '-ar', '24000', '-ac', '1', '-show_entries', 'format=duration', '-of', 'csv=p=0', file];
    return Number((await run('ffprobe', args)).stdout.trim());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('POST /v1/audio/speech through the official OpenAI SDK', { timeout: 180_000 }, () => {
  const fixture = serverWithAdmin();
  const client = () => new OpenAI({ baseURL: `${fixture.server.url}/v1`, apiKey: fixture.admin.key, maxRetries: 0 });
  const task = async (id: string | null) => (await request(fixture.server.url, 'GET', `/api/tasks/${id}`, { key: fixture.admin.key })).body;

  const CODECS = [
    ['mp3', 'mp3'],
    ['opus', 'opus'],
    ['aac', 'aac'],
    ['flac', 'flac'],
    ['wav', 'pcm_s16le'],
  ] as const;
  for (const [format, codec] of CODECS) {
    test(`${format}: decodes with ffprobe`, async () => {
      const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: SENTENCES, response_format: format });
      const info = await probeAudio(Buffer.from(await response.arrayBuffer()));
      assert.equal(info.codec, codec);
      assert.equal(info.channels, 1);
      const done = await task(response.headers.get('x-task-id'));
      assert.equal(done.status, 'completed');
      assert.ok(done.duration > 2, `${done.duration} s`);
    });
  }

  test('pcm: raw 16-bit mono at 24 kHz, its length the audio’s duration', async () => {
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'nova', input: SENTENCES, response_format: 'pcm' });
    assert.equal(response.headers.get('content-type'), 'audio/pcm;rate=24000;channels=1');
    const bytes = Buffer.from(await response.arrayBuffer());
    const done = await task(response.headers.get('x-task-id'));
    assert.ok(Math.abs(bytes.length - done.duration * 24000 * 2) <= 0.02 * 24000 * 2, `${bytes.length} bytes for ${done.duration} s`);
    assert.ok(Math.abs((await pcmSeconds(bytes)) - done.duration) < 0.02);
  });

  test('mp3 is the default, and speed 2.0 is shorter than 1.0', async () => {
    const spoken = async (speed: number) => {
      const response = await client().audio.speech.create({ model: 'tts-1', voice: 'onyx', input: SENTENCES, speed });
      assert.equal(response.headers.get('content-type'), 'audio/mpeg');
      await response.arrayBuffer();
      return (await task(response.headers.get('x-task-id'))).duration as number;
    };
    const normal = await spoken(1.0);
    const fast = await spoken(2.0);
    assert.ok(fast < normal * 0.75, `speed 2: ${fast} s, speed 1: ${normal} s`);
  });

  test('a Timbre voice id works as the voice, as a string and as OpenAI’s { id } object', async () => {
    const response = await client().audio.speech.create({ model: 'tts-1-hd', input: 'Hello.', voice: 'pico:en-US' });
    await response.arrayBuffer();
    assert.equal((await task(response.headers.get('x-task-id'))).voice_id, 'pico:en-US');
    // The SDK's types know only names; the reference also takes the custom-voice object, sent here as JSON.
    const object = await fetch(`${fixture.server.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.admin.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: 'Hello.', voice: { id: 'pico:en-GB' }, response_format: 'wav' }),
    });
    assert.equal(object.status, 200);
    await object.arrayBuffer();
    assert.equal((await task(object.headers.get('x-task-id'))).voice_id, 'pico:en-GB');
  });

  test('the body streams: its first chunk arrives while the rest is being synthesized, and all of it makes one playable file', async () => {
    const response = await client().audio.speech.create({ model: 'flite', voice: 'echo', input: LONG_TEXT, response_format: 'wav' });
    const taskId = response.headers.get('x-task-id');
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    assert.ok(!first.done);
    chunks.push(first.value);
    assert.equal((await task(taskId)).status, 'running');
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    assert.ok(chunks.length > 2, `${chunks.length} chunks`);
    const info = await probeAudio(Buffer.concat(chunks));
    assert.equal(info.codec, 'pcm_s16le');
    const done = await task(taskId);
    assert.equal(done.voice_id.split(':')[0], 'flite');
    assert.ok(info.duration !== null && Math.abs(info.duration - done.duration) < 0.05, `${info.duration} s streamed, ${done.duration} s stored`);
  });

  test('stream_format sse: speech.audio.delta events with base64 audio, then speech.audio.done with usage', async () => {
    const response = await client().audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: SENTENCES,
      response_format: 'pcm',
      stream_format: 'sse',
    });
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events: { type: string; audio?: string; usage?: Record<string, number> }[] = [];
    for await (const event of Stream.fromSSEResponse<(typeof events)[number]>(response, new AbortController())) events.push(event);
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    assert.ok(deltas.length >= 1);
    assert.deepEqual(events.at(-1), { type: 'speech.audio.done', usage: { input_tokens: SENTENCES.length, output_tokens: 0, total_tokens: SENTENCES.length } });
    const pcm = Buffer.concat(deltas.map((event) => Buffer.from(event.audio!, 'base64')));
    const done = await task(response.headers.get('x-task-id'));
    assert.ok(Math.abs(pcm.length - done.duration * 48000) <= 960, `${pcm.length} bytes for ${done.duration} s`);
  });

  test('instructions: pitch and pace are applied, the rest reported as ignored', async () => {
    const input = 'The same words, spoken twice.';
    const plain = await client().audio.speech.create({ model: 'pico', voice: 'nova', input, response_format: 'wav' });
    await plain.arrayBuffer();
    const instructed = await client().audio.speech.create({
      model: 'pico',
      voice: 'nova',
      input,
      response_format: 'wav',
      instructions: 'Speak very slowly, with a high pitch, like a cheerful pirate.',
    });
    await instructed.arrayBuffer();
    assert.equal(plain.headers.get('x-instructions'), null);
    assert.match(instructed.headers.get('x-instructions')!, /^applied=pitch,pace; ignored=.*pirate/);
    const [before, after] = [await task(plain.headers.get('x-task-id')), await task(instructed.headers.get('x-task-id'))];
    assert.ok(after.duration > before.duration * 1.1, `slow: ${after.duration} s, normal: ${before.duration} s`);
  });

  test('a client that leaves mid-stream cancels the synthesis', async () => {
    const response = await client().audio.speech.create({ model: 'flite', voice: 'sage', input: LONG_TEXT, response_format: 'wav' });
    const taskId = response.headers.get('x-task-id');
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    let status = '';
    for (let attempt = 0; attempt < 100 && status !== 'cancelled'; attempt++) {
      status = (await task(taskId)).status;
      await sleep(50);
    }
    assert.equal(status, 'cancelled');
  });

  test('refusals raise the SDK’s classes, naming the field', async () => {
    const tooLong = await client()
      .audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'a'.repeat(4097) })
      .catch((error: unknown) => error);
    assert.ok(tooLong instanceof OpenAI.BadRequestError, String(tooLong));
    assert.equal(tooLong.param, 'input');
    assert.equal(tooLong.type, 'invalid_request_error');

    const noVoice = await client()
      .audio.speech.create({ model: 'tts-1', voice: 'nobody', input: 'Hello.' })
      .catch((error: unknown) => error);
    assert.ok(noVoice instanceof OpenAI.NotFoundError, String(noVoice));
    assert.equal(noVoice.param, 'voice');
    assert.equal(noVoice.code, 'voice_not_found');

    const noModel = await client()
      .audio.speech.create({ model: 'tts-9', voice: 'alloy', input: 'Hello.' })
      .catch((error: unknown) => error);
    assert.ok(noModel instanceof OpenAI.NotFoundError, String(noModel));
    assert.equal(noModel.param, 'model');
  });
});
