import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { Stream } from 'openai/streaming';
import { probeAudio } from '../../../../src/platform/audio/probe.js';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';
import { injectingFetch } from '../../../helpers/inject-fetch.js';

const TEXT = 'A FLAC answer. Its header says how long it is.';

/**
 * FLAC writes its length (and the MD5 of its samples) into its header once the audio is complete;
 * every FLAC answer is sent complete, so ffprobe finds the duration in it (it said N/A before).
 */
describe('every FLAC answer states its duration', { timeout: 180_000 }, () => {
  let timbre: InProcessTimbre;
  let client: OpenAI;

  before(async () => {
    timbre = await startInProcess();
    client = new OpenAI({ baseURL: 'http://127.0.0.1/v1', apiKey: timbre.admin.key, maxRetries: 0, fetch: injectingFetch(timbre) });
  });
  after(() => timbre.close());

  /** The answer's duration as ffprobe reads it, against the task's. */
  async function assertDuration(audio: Buffer, taskId: string | null | undefined): Promise<void> {
    const task = await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}` });
    const expected = task.json<{ duration: number }>().duration;
    const info = await probeAudio(audio);
    assert.equal(info.codec, 'flac');
    assert.ok(info.duration !== null && Math.abs(info.duration - expected) < 0.01, `ffprobe: ${info.duration} s, task: ${expected} s`);
  }

  test('/v1/audio/speech, as audio and as speech.audio.delta events', async () => {
    const plain = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'flac' });
    await assertDuration(Buffer.from(await plain.arrayBuffer()), plain.headers.get('x-task-id'));
    const events = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: TEXT, response_format: 'flac', stream_format: 'sse' });
    const deltas: Buffer[] = [];
    for await (const event of Stream.fromSSEResponse<{ type: string; audio?: string }>(events, new AbortController()))
      if (event.audio) deltas.push(Buffer.from(event.audio, 'base64'));
    await assertDuration(Buffer.concat(deltas), events.headers.get('x-task-id'));
  });

  test('/api/generate/preset, whole and streamed, and the stored task audio', async () => {
    for (const stream of [false, true]) {
      const answer = await timbre.call({
        method: 'POST',
        url: '/api/generate/preset',
        payload: { voice_id: 'pico:en-US', text: TEXT, language: 'en-US', format: 'flac', stream },
      });
      assert.equal(answer.statusCode, 200, answer.body);
      const taskId = String(answer.headers['x-task-id']);
      await assertDuration(answer.rawPayload, taskId);
      await assertDuration((await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}/audio` })).rawPayload, taskId);
    }
  });
});
