import { capabilitiesOf } from '../../../helpers/fake-engines.js';
import { singleRun } from '../../../../src/platform/speech/speech-plan.js';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { EngineClient, type CallOptions, type EngineCall, type EngineMethod, type EngineResult } from '../../../../src/platform/engines/host/calls.js';
import { isResultOf } from '../../../../src/platform/engines/host/results.js';
import { ApiError, EngineError } from '../../../../src/platform/errors.js';
import { speakToFile, type SpeakingJob } from '../../../../src/platform/speech/speak-to-file.js';
import { CALL_SECONDS, MAX_CALL_SECONDS } from '../../../../src/platform/speech/speech-parts.js';
import { VoiceFiles } from '../../../../src/platform/speech/voice-files.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { estimateSpeechSeconds } from '../../../../src/platform/speech/speech-length.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const RATE = 16000;
const SENTENCE_SECONDS = 0.5;

/**
 * An engine host stand-in that speaks like the built-in engines stream: each sentence of a call a
 * piece of SENTENCE_SECONDS (a word timing for each), sent before the call answers with its
 * timings and no samples. Text without Latin letters is `text_empty`, as Open JTalk says of Cyrillic.
 */
class SentenceEngines extends EngineClient {
  readonly calls: { text: string; options: CallOptions }[] = [];

  available = () => Promise.resolve({ available: true });

  run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    const asked: EngineCall = call;
    if (asked.method === 'capabilities') return answer(call.method, capabilitiesOf(engine));
    if (asked.method !== 'synthesize') return Promise.reject(new EngineError('method_not_supported', asked.method));
    const { text } = asked.args[0];
    this.calls.push({ text, options });
    if (options.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'The job was cancelled'));
    if (!/[a-z]/i.test(text)) return Promise.reject(new EngineError('text_empty', 'Nothing to say'));
    const sentences = text.split(/(?<=\.)\s+/);
    for (const _ of sentences) options.onAudio?.({ pcm: { samples: new Float32Array(SENTENCE_SECONDS * RATE).fill(0.25), sampleRate: RATE } });
    const words = sentences.map((sentence, index) => ({ word: sentence.split(' ')[0]!, start: index * SENTENCE_SECONDS, end: (index + 1) * SENTENCE_SECONDS }));
    const value = { pcm: { samples: new Float32Array(0), sampleRate: RATE }, words };
    return answer(call.method, value);
  }
}

function answer<M extends EngineMethod>(method: M, value: unknown): Promise<EngineResult<M>> {
  return isResultOf(method, value) ? Promise.resolve(value) : Promise.reject(new Error('not a result'));
}

/** Speaks each call after a delay that shrinks call by call, so later calls finish first (as on several hosts); each piece holds its call's number. */
class OvertakingEngines extends EngineClient {
  private calls = 0;

  available = () => Promise.resolve({ available: true });

  async run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    if (call.method === 'capabilities') return answer(call.method, capabilitiesOf(engine));
    const number = ++this.calls;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 60 - number * 20)));
    options.onAudio?.({ pcm: { samples: new Float32Array(RATE / 10).fill(number / 100), sampleRate: RATE } });
    return answer(call.method, { pcm: { samples: new Float32Array(0), sampleRate: RATE } });
  }
}

const TEXT = Array.from({ length: 40 }, (_, index) => `Sentence number ${index + 1} goes to the engine in its part.`).join(' ');
const LONGER = [TEXT, TEXT, TEXT, TEXT].join(' ');

describe('speaking to a file', () => {
  let dir: string;
  let audio: AudioStore;
  let voiceFiles: VoiceFiles;

  before(async () => {
    dir = await tempDir();
    audio = new AudioStore(dir);
    voiceFiles = new VoiceFiles(dir);
  });
  after(() => removeDir(dir));

  const context = (quick = false) => ({ signal: new AbortController().signal, progress: () => undefined, quick });
  const job = (stored: string, text: string, maxSeconds = 1200): SpeakingJob => ({
    plan: singleRun('pico', { text, voice: 'fake:voice', language: 'en-US' }, {}),
    format: 'wav',
    stored: audio.pathFor(stored),
    maxSeconds,
  });

  test('the text goes to the engine in parts, at first of at most CALL_SECONDS, its audio straight into the file, the timings placed in the whole', async () => {
    const engines = new SentenceEngines();
    const spoken = await speakToFile({ engines, voiceFiles, audio }, job('parts.wav', TEXT), context(true));
    assert.ok(engines.calls.length > 2, `${engines.calls.length} calls`);
    for (const [index, call] of engines.calls.entries()) {
      // The first two go before the engine's pace is known; then a part is what the engine says in a second and a half.
      assert.ok(estimateSpeechSeconds(call.text, 'en-US') <= (index < 2 ? CALL_SECONDS : MAX_CALL_SECONDS), call.text);
      assert.equal(call.options.quick, true, "a quick job's calls say so");
    }
    assert.equal(engines.calls.map((call) => call.text).join(' '), TEXT, 'every sentence, in order, once');
    assert.equal(spoken.duration, 40 * SENTENCE_SECONDS);
    const stored = parseWav(await readFile(audio.absolute(audio.pathFor('parts.wav'))));
    assert.equal(stored.samples.length, 40 * SENTENCE_SECONDS * RATE);
    const words = (spoken.timings?.words ?? []) as { word: string; start: number }[];
    assert.deepEqual(
      words.map((word) => word.start),
      Array.from({ length: 40 }, (_, index) => index * SENTENCE_SECONDS),
    );
  });

  test('audio past the bound stops the synthesis with 422 audio_too_long and leaves no file', async () => {
    const engines = new SentenceEngines();
    await assert.rejects(speakToFile({ engines, voiceFiles, audio }, job('bounded.wav', LONGER, 3), context()), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.statusCode === 422 && error.code === 'audio_too_long', String(error));
      assert.ok(Number(error.details.produced_seconds) > 3 && error.details.max_seconds === 3, JSON.stringify(error.details));
      return true;
    });
    // Past 3 s in the third part; the stand-in answers at once, so two more were asked before the bound was seen.
    const said = engines.calls.map((call) => call.text).join(' ');
    assert.ok(engines.calls.length <= 5 && said.length < LONGER.length / 2, `stopped after ${engines.calls.length} calls, ${said.length} characters`);
    assert.deepEqual(
      (await readdir(join(dir, 'audio'))).filter((name) => name.includes('bounded')),
      [],
      'neither the file nor its temporary one',
    );
  });

  test('parts whose calls overtake one another (several engine hosts) still come out in order', async () => {
    await speakToFile({ engines: new OvertakingEngines(), voiceFiles, audio }, job('ordered.wav', TEXT), context());
    const stored = parseWav(await readFile(audio.absolute(audio.pathFor('ordered.wav'))));
    const calls = stored.samples.filter((_, index) => index % (RATE / 10) === 0).map((sample) => Math.round(sample * 100));
    assert.deepEqual(
      [...calls],
      Array.from({ length: calls.length }, (_, index) => index + 1),
    );
  });

  test('a part with nothing the engine can say is left out; a text with nothing at all is text_empty', async () => {
    const engines = new SentenceEngines();
    const mixed = `${'Привет, мир, как дела. '.repeat(8)}${TEXT.slice(0, 300)}`;
    const spoken = await speakToFile({ engines, voiceFiles, audio }, job('mixed.wav', mixed), context());
    assert.ok(spoken.duration > 0);
    assert.ok(
      engines.calls.some((call) => !/[a-z]/i.test(call.text)),
      'a part of Cyrillic alone went to the engine',
    );
    await assert.rejects(speakToFile({ engines, voiceFiles, audio }, job('empty.wav', 'Привет, мир.'), context()), { code: 'text_empty' });
  });
});
