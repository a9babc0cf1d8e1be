import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { parseSrt, parseVtt } from '../../../../src/platform/text/subtitles.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'tts:generate=100', '--rate-limit', 'audio:process=100'];
const SENTENCE = 'Please call me tomorrow at the office.';
const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

/** POSTs one file as multipart/form-data with text fields. */
async function upload(base: string, key: string, file: Buffer, name: string, fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([file]), name);
  return fetch(new URL('/api/transcribe', base), { method: 'POST', headers: { 'x-api-key': key }, body: form });
}

describe('transcription', () => {
  const fixture = serverWithAdmin({ keyArgs: LIMITS });

  test('a sentence spoken by the Festival HTS voice comes back with its words and word times inside the audio', async () => {
    const spoken = await fetch(new URL('/api/generate/preset', fixture.server.url), {
      method: 'POST',
      headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
      body: JSON.stringify({ voice_id: 'festival:cmu_us_slt_arctic_hts', text: SENTENCE, language: 'en-US' }),
    });
    const duration = Number(spoken.headers.get('x-audio-duration'));
    const response = await upload(fixture.server.url, fixture.admin.key, Buffer.from(await spoken.arrayBuffer()), 'sentence.wav', {
      language: 'en',
      timestamps: 'word',
    });
    assert.equal(response.status, 200, await response.clone().text());
    const result = (await response.json()) as any;
    assert.equal(result.recognizer, 'pocketsphinx');
    assert.ok(wordErrorRate(SENTENCE, result.text) <= WER_THRESHOLDS['festival:cmu_us_slt_arctic_hts'], result.text);
    const words = result.segments.flatMap((segment: { words: { start: number; end: number }[] }) => segment.words);
    assert.ok(words.length >= 5);
    for (const word of words) assert.ok(word.start >= 0 && word.end <= duration + 0.01 && word.start <= word.end, JSON.stringify(word));
    assert.match(result.asset_id, /^asset_/);
  });

  test('jfk.wav returns recognisable text; SRT and VTT outputs parse', async () => {
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const json = (await (await upload(fixture.server.url, fixture.admin.key, jfk, 'jfk.wav', {})).json()) as any;
    assert.ok(wordErrorRate(JFK, json.text) <= WER_THRESHOLDS.jfk, json.text);
    assert.equal(json.language, 'en');
    const srt = await request(fixture.server.url, 'POST', '/api/transcribe', { key: fixture.admin.key, json: { asset_id: json.asset_id, format: 'srt' } });
    assert.equal(srt.status, 200);
    const cues = parseSrt(srt.text);
    assert.ok(cues.length >= 1 && cues.every((cue) => cue.end <= 11.1));
    const vtt = await request(fixture.server.url, 'POST', '/api/transcribe', { key: fixture.admin.key, json: { asset_id: json.asset_id, format: 'vtt' } });
    assert.deepEqual(
      parseVtt(vtt.text).map((cue) => cue.text),
      cues.map((cue) => cue.text),
    );
    const text = await request(fixture.server.url, 'POST', '/api/transcribe', { key: fixture.admin.key, json: { asset_id: json.asset_id, format: 'text' } });
    assert.match(text.text, /country/);
  });

  test('a language no installed recognizer handles, a bad field and a non-audio file get clear errors', async () => {
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const german = await upload(fixture.server.url, fixture.admin.key, jfk, 'jfk.wav', { language: 'de' });
    assert.equal(german.status, 422);
    assert.equal(((await german.json()) as any).error.code, 'language_not_supported');
    const bad = await request(fixture.server.url, 'POST', '/api/transcribe', { key: fixture.admin.key, json: { asset_id: 'asset_x', timestamps: 'letters' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, 'body.timestamps');
    const notAudio = await upload(fixture.server.url, fixture.admin.key, Buffer.from('just some text'), 'notes.txt', {});
    assert.equal(notAudio.status, 415);
    assert.equal(((await notAudio.json()) as any).error.code, 'audio_unreadable');
  });
});
