import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { parseSrt } from '../../../../src/platform/text/subtitles.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';
import { injectingFetch } from '../../../helpers/inject-fetch.js';

const SENTENCE = 'Please call me tomorrow at the office.';
/** The voice PocketSphinx's thresholds are measured on. */
const VOICE = 'festival:cmu_us_slt_arctic_hts';

describe('POST /v1/audio/translations through the official OpenAI SDK', { timeout: 180_000 }, () => {
  let timbre: InProcessTimbre;
  let client: OpenAI;
  let spoken: Buffer;
  const file = () => toFile(spoken, 'sentence.wav', { type: 'audio/wav' });
  /** The SDK's overloads type every translation as `{ text }`: they do not read response_format (its transcriptions' do). */
  const translate = <T>(params: OpenAI.Audio.TranslationCreateParams) => client.audio.translations.create(params) as unknown as Promise<T>;

  before(async () => {
    timbre = await startInProcess();
    client = new OpenAI({ baseURL: 'http://127.0.0.1/v1', apiKey: timbre.admin.key, maxRetries: 0, fetch: injectingFetch(timbre) });
    const speech = await client.audio.speech.create({ model: 'festival', voice: VOICE, input: SENTENCE, response_format: 'wav' });
    spoken = Buffer.from(await speech.arrayBuffer());
  });
  after(() => timbre.close());

  test('English speech: its English text, as json, text, srt and verbose_json', async () => {
    const json = await client.audio.translations.create({ file: await file(), model: 'whisper-1' });
    assert.ok(wordErrorRate(SENTENCE, json.text) <= WER_THRESHOLDS[VOICE], json.text);
    assert.match(json._request_id ?? '', /^req_/, 'the SDK reads X-Request-Id');
    const text = await translate<string>({ file: await file(), model: 'whisper-1', response_format: 'text', prompt: 'A phone call.', temperature: 0 });
    assert.equal(text.trim(), json.text);
    const srt = await translate<string>({ file: await file(), model: 'pocketsphinx', response_format: 'srt' });
    const cues = parseSrt(srt);
    assert.ok(cues.length >= 1 && cues.every((cue) => cue.end <= 4));
    const verbose = await translate<OpenAI.Audio.TranslationVerbose & { task: string }>({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    assert.equal(verbose.language, 'english');
    assert.equal(verbose.task, 'translate');
    assert.equal(verbose.text, json.text);
    assert.ok(verbose.duration > 1 && verbose.duration < 4, `${verbose.duration} s`);
    assert.deepEqual(
      verbose.segments?.map((segment) => segment.text.trim()),
      cues.map((cue) => cue.text),
    );
  });

  test('speech stated to be in another language is refused before it is heard, in OpenAI’s shape', async () => {
    const stated = await client.audio.translations
      .create({ file: await file(), model: 'whisper-1', language: 'de' } as OpenAI.Audio.TranslationCreateParams)
      .catch((error: unknown) => error);
    assert.ok(stated instanceof OpenAI.UnprocessableEntityError, String(stated));
    assert.equal(stated.code, 'translation_not_supported');
    assert.equal(stated.param, 'file');
    assert.match(stated.message, /German \(de\)/);
    assert.match(stated.requestID ?? '', /^req_/);
  });

  test('a recognizer that hears another language: refused once it has heard it', async (t) => {
    const transcription = timbre.services.transcription;
    const transcribe = transcription.transcribe.bind(transcription);
    t.mock.method(transcription, 'transcribe', async (...args: Parameters<typeof transcribe>) => ({ ...(await transcribe(...args)), language: 'fr' }));
    const detected = await client.audio.translations.create({ file: await file(), model: 'whisper-1' }).catch((error: unknown) => error);
    assert.ok(detected instanceof OpenAI.UnprocessableEntityError, String(detected));
    assert.match(detected.message, /French \(fr\)/);
  });

  test('refusals of the form raise the SDK’s classes', async () => {
    const noModel = await client.audio.translations.create({ file: await file(), model: 'whisper' }).catch((error: unknown) => error);
    assert.ok(noModel instanceof OpenAI.NotFoundError, String(noModel));
    assert.equal(noModel.param, 'model');
    const hot = await client.audio.translations.create({ file: await file(), model: 'whisper-1', temperature: 3 }).catch((error: unknown) => error);
    assert.ok(hot instanceof OpenAI.BadRequestError, String(hot));
    assert.equal(hot.param, 'temperature');
    const notAudio = await client.audio.translations
      .create({ file: await toFile(Buffer.from('just some text'), 'notes.txt'), model: 'whisper-1' })
      .catch((error: unknown) => error);
    assert.ok(notAudio instanceof OpenAI.APIError && notAudio.status === 415, String(notAudio));
  });
});
