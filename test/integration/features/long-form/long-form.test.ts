// Black-box (the service as a process): progress is read on /ws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { measureLoudness } from '../../../../src/platform/audio/loudness.js';
import { MERGE_DEFAULTS } from '../../../../src/platform/audio/merge.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { request, serverWithAdmin, type Response } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'voices:read=1000', '--rate-limit', 'ws:connect=100'];
const TWENTY = Array.from({ length: 20 }, (_, index) => `Sentence ${index + 1} tells a short part of the story.`).join(' ');
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';

async function fetchBytes(base: string, path: string, key: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(new URL(path, base), { headers: { 'x-api-key': key } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

async function postBytes(base: string, path: string, key: string, json: unknown): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

async function finished(get: (path: string) => Promise<Response>, taskId: string): Promise<any> {
  for (;;) {
    const task = await get(`/api/tasks/${taskId}`);
    if (
      ['completed', 'failed', 'cancelled'].includes(task.body.status) &&
      task.body.chunks.every((chunk: { state: string }) => chunk.state !== 'running' && chunk.state !== 'pending')
    )
      return task.body;
    await sleep(100);
  }
}

async function takeDone(get: (path: string) => Promise<Response>, taskId: string, index: number, take: number): Promise<any> {
  for (;;) {
    const task = await get(`/api/tasks/${taskId}`);
    const chunk = task.body.chunks[index];
    const state = chunk.takes.find((candidate: { take: number }) => candidate.take === take)?.state;
    if (state === 'completed' || state === 'failed') return task.body;
    await sleep(100);
  }
}

describe('long-form generation', () => {
  const fixture = serverWithAdmin({ keyArgs: LIMITS });
  const post = (path: string, json: unknown) => request(fixture.server.url, 'POST', path, { key: fixture.admin.key, json });
  const get = (path: string) => request(fixture.server.url, 'GET', path, { key: fixture.admin.key });

  test('20 sentences become 20 chunks; the first plays before the last is done; merging adds the documented pauses at the target loudness', async () => {
    const socket = openEventSocket(fixture.server.url, { key: fixture.admin.key });
    await new Promise((resolve) => socket.once('open', resolve));
    const firstChunkDone = new Promise<void>((resolve) =>
      socket.on('message', (raw) => {
        const event = JSON.parse(String(raw));
        if (event.type === 'job.progress' && event.data.stage === 'chunk_completed' && event.data.chunk_index === 0) resolve();
      }),
    );
    const started = await post('/api/generate/clone-chunked', { voice_id: SLOW_VOICE, text: TWENTY, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    assert.equal(started.body.chunks.length, 20);
    const taskId = started.body.task_id;

    await firstChunkDone;
    const first = await fetchBytes(fixture.server.url, `/api/audio/chunk/${taskId}/0`, fixture.admin.key);
    assert.equal(first.status, 200);
    assert.ok(parseWav(first.bytes).samples.length > 0);
    const during = await get(`/api/tasks/${taskId}`);
    assert.notEqual(during.body.chunks[19].state, 'completed', 'the last chunk is still to come');
    socket.close();

    const task = await finished(get, taskId);
    assert.equal(task.status, 'completed');
    const merged = await postBytes(fixture.server.url, '/api/generate/merge-chunks', fixture.admin.key, { task_id: taskId });
    assert.equal(merged.status, 200);
    const pcm = parseWav(merged.bytes);
    const expected = task.chunks.reduce((sum: number, chunk: { duration: number }) => sum + chunk.duration, 0) + (19 * MERGE_DEFAULTS.pauseMs) / 1000;
    assert.ok(Math.abs(pcm.samples.length / pcm.sampleRate - expected) < 0.05, `${pcm.samples.length / pcm.sampleRate} vs ${expected}`);
    const loudness = await measureLoudness(pcm);
    assert.ok(Math.abs(loudness.integratedLufs - MERGE_DEFAULTS.targetLufs) <= 1, `${loudness.integratedLufs} LUFS`);
    const subtitles = await get(`/api/tasks/${taskId}/subtitles?format=json`);
    assert.equal(subtitles.body.cues.length, 20);
  });

  test('regenerating chunk 3 with new text changes only chunk 3, keeps the old take, and the next merge uses the new take', async () => {
    const text = 'One short line. Two short lines. Three short lines. Four short lines. Five short lines.';
    const started = await post('/api/generate/clone-chunked', { voice_id: 'pico:en-US', text, language: 'en-US' });
    const taskId = started.body.task_id;
    const before = await finished(get, taskId);
    const firstMerge = await postBytes(fixture.server.url, '/api/generate/merge-chunks', fixture.admin.key, { task_id: taskId, normalize: false });
    const newText = 'This third chunk has been rewritten into a considerably longer sentence than it was.';
    const regenerated = await post('/api/generate/regenerate-chunk', { task_id: taskId, index: 3, text: newText });
    assert.equal(regenerated.status, 202, regenerated.text);
    assert.equal(regenerated.body.take, 2);
    const after = await takeDone(get, taskId, 3, 2);
    for (const index of [0, 1, 2, 4]) assert.deepEqual(after.chunks[index], before.chunks[index], `chunk ${index} untouched`);
    assert.equal(after.chunks[3].text, newText);
    assert.equal(after.chunks[3].selected_take, 2);
    assert.deepEqual(
      after.chunks[3].takes.map((take: { take: number }) => take.take),
      [1, 2],
    );
    assert.equal(after.chunks[3].takes[0].text, 'Four short lines.');
    const secondMerge = await postBytes(fixture.server.url, '/api/generate/merge-chunks', fixture.admin.key, { task_id: taskId, normalize: false });
    const growth = Number(secondMerge.headers.get('x-audio-duration')) - Number(firstMerge.headers.get('x-audio-duration'));
    assert.ok(Math.abs(growth - (after.chunks[3].duration - before.chunks[3].duration)) < 0.01, `merged grew by ${growth}`);
  });

  test('a two-voice script gives each chunk its speaker’s voice; a two-language text gives each chunk its language', async () => {
    const script = 'Anna: Good morning. How are you today?\nBen: I am fine, thank you.\n\nAnna: Shall we begin?';
    const voices = await post('/api/generate/clone-chunked-multivoice', { script, voices: { Anna: 'pico:en-US', Ben: 'flite:rms' } });
    assert.equal(voices.status, 202, voices.text);
    assert.deepEqual(
      voices.body.chunks.map((chunk: { voice_id: string }) => chunk.voice_id),
      ['pico:en-US', 'pico:en-US', 'flite:rms', 'pico:en-US'],
    );
    const unknown = await post('/api/generate/clone-chunked-multivoice', { script: 'Carl: Hello.', voices: { Anna: 'pico:en-US' } });
    assert.equal(unknown.body.error.code, 'script_invalid');

    const text = 'The weather is lovely today and we are going to the park. El tiempo es muy bueno hoy y vamos a ir al parque.';
    const languages = await post('/api/generate/clone-chunked-multilang', { voice_id: 'pico:en-US', text, languages: ['en', 'es'] });
    assert.equal(languages.status, 202, languages.text);
    const chunks = languages.body.chunks;
    assert.deepEqual(
      chunks.map((chunk: { language: string }) => chunk.language.slice(0, 2)),
      ['en', 'es'],
    );
    assert.equal(chunks[0].route, 'voice');
    assert.match(chunks[1].route, /^preset:.*es/i, 'a Spanish preset stands in for the English-only voice');
    const done = await finished(get, languages.body.task_id);
    assert.equal(done.status, 'completed');
  });

  test('merging with a chunk missing names it', async () => {
    const started = await post('/api/generate/clone-chunked', { voice_id: SLOW_VOICE, text: TWENTY, language: 'en-US' });
    const refused = await post('/api/generate/merge-chunks', { task_id: started.body.task_id });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'chunks_not_ready');
    assert.ok(refused.body.error.details.chunks.length > 0);
    await post('/api/generation/cancel', { task_id: started.body.task_id });
  });
});
