import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { parseSrt, parseVtt } from '../../../../src/platform/text/subtitles.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { inProcessWithAdmin } from '../../../helpers/in-process.js';

const SENTENCE = 'Please call me tomorrow at the office.';
const VOICE = 'festival:cmu_us_slt_arctic_hts';
const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

describe('POST /v1/audio/transcriptions through the official OpenAI SDK', { timeout: 180_000 }, () => {
  const fixture = inProcessWithAdmin();
  const client = () => new OpenAI({ baseURL: `${fixture.server.url}/v1`, fetch: fixture.server.fetch, apiKey: fixture.admin.key, maxRetries: 0 });
  let spoken: Buffer;
  let duration: number;
  const file = () => toFile(spoken, 'sentence.wav', { type: 'audio/wav' });

  before(async () => {
    // Speech this service just made, with the voice PocketSphinx's thresholds are measured on.
    const response = await client().audio.speech.create({ model: 'festival', voice: VOICE, input: SENTENCE, response_format: 'wav' });
    spoken = Buffer.from(await response.arrayBuffer());
    const task = await fixture.server.fetch(`${fixture.server.url}/api/tasks/${response.headers.get('x-task-id')}`, {
      headers: { 'x-api-key': fixture.admin.key },
    });
    duration = ((await task.json()) as { duration: number }).duration;
  });

  test('json and text: the words spoken', async () => {
    const json = await client().audio.transcriptions.create({ file: await file(), model: 'whisper-1', language: 'en' });
    assert.ok(wordErrorRate(SENTENCE, json.text) <= WER_THRESHOLDS[VOICE], json.text);
    assert.ok(json.usage?.type === 'duration' && Math.abs(json.usage.seconds - duration) < 0.1, JSON.stringify(json.usage));
    const text = await client().audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe', response_format: 'text' });
    assert.equal(text.trim(), json.text);
  });

  test('verbose_json: English language name, segments with Whisper’s fields, words ordered in time within the audio', async () => {
    const verbose = await client().audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    assert.equal(verbose.language, 'english');
    assert.ok(Math.abs(verbose.duration - duration) < 0.1, `${verbose.duration} s of ${duration} s`);
    assert.ok(wordErrorRate(SENTENCE, verbose.text) <= WER_THRESHOLDS[VOICE], verbose.text);
    assert.ok(verbose.segments && verbose.segments.length >= 1);
    verbose.segments.forEach((segment, index) => {
      assert.equal(segment.id, index);
      for (const field of ['seek', 'start', 'end', 'temperature', 'avg_logprob', 'compression_ratio', 'no_speech_prob'] as const) {
        assert.equal(typeof segment[field], 'number', field);
      }
      assert.deepEqual(segment.tokens, []);
    });
    const words = verbose.words ?? [];
    assert.ok(words.length >= 5, JSON.stringify(words));
    for (const [index, word] of words.entries()) {
      assert.ok(word.start <= word.end && word.start >= 0 && word.end <= duration + 0.01, JSON.stringify(word));
      if (index > 0) assert.ok(word.start >= words[index - 1]!.start, 'words are in order of time');
    }
  });

  test('srt and vtt: the same cues, inside the audio', async () => {
    const jfk = await toFile(await readFile(join(REFERENCE_AUDIO, 'jfk.wav')), 'jfk.wav');
    const srt = await client().audio.transcriptions.create({ file: jfk, model: 'pocketsphinx', response_format: 'srt' });
    const cues = parseSrt(srt);
    assert.ok(cues.length >= 1 && cues.every((cue) => cue.end <= 11.1));
    assert.ok(wordErrorRate(JFK, cues.map((cue) => cue.text).join(' ')) <= WER_THRESHOLDS.jfk);
    const vtt = await client().audio.transcriptions.create({ file: jfk, model: 'whisper-1', response_format: 'vtt' });
    assert.deepEqual(
      parseVtt(vtt).map((cue) => cue.text),
      cues.map((cue) => cue.text),
    );
  });

  test('refusals raise the SDK’s classes', async () => {
    const noModel = await client()
      .audio.transcriptions.create({ file: await file(), model: 'whisper' })
      .catch((error: unknown) => error);
    assert.ok(noModel instanceof OpenAI.NotFoundError, String(noModel));
    assert.equal(noModel.param, 'model');
    const hot = await client()
      .audio.transcriptions.create({ file: await file(), model: 'whisper-1', temperature: 3 })
      .catch((error: unknown) => error);
    assert.ok(hot instanceof OpenAI.BadRequestError, String(hot));
    assert.equal(hot.param, 'temperature');
    const german = await client()
      .audio.transcriptions.create({ file: await file(), model: 'whisper-1', language: 'de' })
      .catch((error: unknown) => error);
    assert.ok(german instanceof OpenAI.UnprocessableEntityError, String(german));
    const notAudio = await client()
      .audio.transcriptions.create({ file: await toFile(Buffer.from('just some text'), 'notes.txt'), model: 'whisper-1' })
      .catch((error: unknown) => error);
    assert.ok(notAudio instanceof OpenAI.APIError && notAudio.status === 415, String(notAudio));
    assert.equal(notAudio.code, 'audio_unreadable');
  });
});
