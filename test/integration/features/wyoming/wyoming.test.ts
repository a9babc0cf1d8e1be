// Black-box (the service as a process): the Wyoming server, held to the protocol's document by a client
// written from that document alone (test/helpers/wyoming-client.ts), as Home Assistant would talk to it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { rms } from '../../../../src/platform/audio/pcm.js';
import { median } from '../../../../bench/measure.js';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { createKeyWithCli, GENEROUS_LIMITS, postMultipart, removeDir, request, tempDir, type CreatedKey } from '../../../helpers/timbre.js';
import {
  int16Samples,
  rawPcm,
  readAudio,
  sendAudio,
  startTimbreWithWyoming,
  synthesize,
  type AudioReply,
  type RunningWyoming,
  type WyomingClient,
  type WyomingEvent,
} from '../../../helpers/wyoming-client.js';

const SENTENCE = 'The kettle is on, and the tea will be ready in five minutes.';
/** A short first sentence, then four long ones: the first audio can come long before the last. */
const FIVE_SENTENCES = [
  'Good evening.',
  'The lights in the living room will switch off at eleven, unless somebody is still reading on the sofa by then.',
  'Tomorrow morning the heating starts at half past six, so the kitchen is warm before anybody comes down for breakfast.',
  'The weather service expects light rain in the afternoon, with a cool wind from the west and clearer skies later on.',
  'Remember that the recycling goes out on Thursday evening, and the garden waste collection moves to Friday this week.',
].join(' ');
const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
/** Three built-in engines, each a different family of synthesis (diphone/formant, HMM, unit concatenation). */
const THREE_ENGINES = ['espeak', 'rhvoice', 'flite'] as const;
/** A chunk is "about 100 ms": never longer than the first, and most are at least the second. */
const MAX_CHUNK_SECONDS = 0.12;
const MIN_TYPICAL_CHUNK_SECONDS = 0.05;

describe('the Wyoming server, through a client written from the protocol document', { timeout: 600_000 }, () => {
  let wyoming: RunningWyoming;
  let key: CreatedKey;
  let info: WyomingEvent;

  before(async () => {
    const dataDir = await tempDir();
    key = await createKeyWithCli(dataDir, 'wyoming', GENEROUS_LIMITS);
    wyoming = await startTimbreWithWyoming({ dataDir, keyId: key.key_id });
    info = await talk(async (client) => {
      await client.send('describe');
      return client.expect('info');
    });
  });
  after(async () => {
    await wyoming?.timbre.stop();
    if (wyoming) await removeDir(wyoming.timbre.dataDir);
  });

  /** One connection for `work`, closed after it. */
  async function talk<T>(work: (client: WyomingClient) => Promise<T>): Promise<T> {
    const client = await wyoming.connect();
    try {
      return await work(client);
    } finally {
      client.end();
    }
  }

  const task = async (taskId: unknown) => (await request(wyoming.timbre.url, 'GET', `/api/tasks/${String(taskId)}`, { key: key.key })).body;
  const voices = (): any[] => info.data.tts[0].voices;
  /** The first installed English voice of an engine, as info lists it. */
  function englishVoice(engine: string): string {
    const voice = voices().find((entry) => entry.name.startsWith(`${engine}:`) && entry.installed && entry.languages.some((tag: string) => /^en/i.test(tag)));
    assert.ok(voice, `info lists no installed English ${engine} voice`);
    return voice.name;
  }

  test('ping → pong, the text copied back (data given inline in the header)', async () => {
    const pong = await talk(async (client) => {
      await client.send('ping', { text: 'marco' }, undefined, 'header');
      return client.expect('pong');
    });
    assert.equal(pong.data.text, 'marco');
  });

  test('describe → info: a TTS program listing the built-in voices with languages and attribution, an ASR program with PocketSphinx for English', async () => {
    const [tts] = info.data.tts;
    assert.equal(info.data.tts.length, 1);
    assert.equal(typeof tts.name, 'string');
    assert.equal(typeof tts.attribution.name, 'string');
    assert.equal(typeof tts.attribution.url, 'string');
    assert.equal(tts.installed, true);
    assert.equal(typeof tts.version, 'string');
    // Home Assistant streams a reply (synthesize-start…) only to a program that says it can.
    assert.equal(tts.supports_synthesize_streaming, true);
    for (const voice of voices()) {
      assert.ok(Array.isArray(voice.languages) && voice.languages.length > 0, JSON.stringify(voice));
      assert.ok(
        voice.languages.every((tag: unknown) => typeof tag === 'string' && tag.length > 0),
        JSON.stringify(voice),
      );
      assert.equal(typeof voice.attribution?.name, 'string', JSON.stringify(voice));
      assert.equal(typeof voice.attribution?.url, 'string', JSON.stringify(voice));
      assert.equal(typeof voice.installed, 'boolean', JSON.stringify(voice));
    }
    for (const engine of ['rhvoice', 'pico', 'espeak', 'festival', 'flite', 'openjtalk']) {
      assert.ok(
        voices().some((voice) => voice.name.startsWith(`${engine}:`) && voice.installed),
        `no installed ${engine} voice`,
      );
    }
    const japanese = voices().find((voice) => voice.name.startsWith('openjtalk:'));
    assert.ok(
      japanese.languages.some((tag: string) => /^ja/i.test(tag)),
      JSON.stringify(japanese),
    );
    // A voice's name is its Timbre id: the REST API knows it by the same name.
    const named = await request(wyoming.timbre.url, 'GET', `/api/voices/${encodeURIComponent(englishVoice('rhvoice'))}`, { key: key.key });
    assert.equal(named.status, 200);
    const models: any[] = info.data.asr[0].models;
    const sphinx = models.find((model) => /pocketsphinx/i.test(model.name));
    assert.ok(sphinx, JSON.stringify(models));
    assert.ok(
      sphinx.languages.some((tag: string) => /^en/i.test(tag)),
      JSON.stringify(sphinx),
    );
    assert.equal(sphinx.installed, true);
  });

  /** What every synthesized reply must be: 16-bit mono PCM in ~100 ms chunks, speech rather than silence, as long as its task. */
  async function assertSpeech(reply: AudioReply, voice: string) {
    assert.equal(reply.error, undefined, JSON.stringify(reply.error?.data));
    assert.ok(reply.start && reply.stop, reply.events.map((event) => event.type).join(' '));
    const { rate, width, channels } = reply.start.data;
    assert.deepEqual({ width, channels }, { width: 2, channels: 1 });
    assert.ok(Number.isInteger(rate) && rate >= 8000 && rate <= 48000, `rate ${rate}`);
    assert.ok(reply.chunks.length >= 3, `${reply.chunks.length} chunks`);
    for (const chunk of reply.chunks) {
      assert.equal(chunk.payload.length % 2, 0);
      assert.ok(chunk.payload.length > 0 && chunk.payload.length / 2 / rate <= MAX_CHUNK_SECONDS, `a chunk of ${chunk.payload.length / 2 / rate} s`);
    }
    const typical = median(reply.chunks.map((chunk) => chunk.payload.length / 2 / rate));
    assert.ok(typical >= MIN_TYPICAL_CHUNK_SECONDS, `chunks of ${typical} s (median)`);
    const samples = int16Samples(reply.pcm);
    assert.ok(rms(samples) > 0.01, `RMS ${rms(samples)}: silence`);
    const done = await task(reply.start.data.timbre_task_id);
    assert.equal(done.status, 'completed');
    assert.equal(done.voice_id, voice);
    assert.equal(done.sample_rate, rate);
    assert.ok(Math.abs(reply.seconds - done.duration) <= 0.02, `${reply.seconds} s sent, the task says ${done.duration} s`);
  }

  for (const engine of THREE_ENGINES) {
    test(`synthesize with a ${engine} voice: 16-bit mono PCM at the announced rate in ~100 ms chunks, speech as long as its task`, async () => {
      const voice = englishVoice(engine);
      const reply = await talk((client) => synthesize(client, SENTENCE, voice));
      await assertSpeech(reply, voice);
    });
  }

  test('a 5-sentence text: the first audio-chunk arrives while the later sentences are still being synthesized', async () => {
    // The slowest built-in English voice, warmed up so that loading it is not what is measured.
    const voice = englishVoice('festival');
    await talk((client) => synthesize(client, 'Warming up.', voice));
    const { reply, sentAt, statusAtFirstChunk } = await talk(async (client) => {
      const sentAt = performance.timeOrigin + performance.now();
      await client.send('synthesize', { text: FIVE_SENTENCES, voice: { name: voice } });
      let statusAtFirstChunk = '';
      const reply = await readAudio(client, undefined, async (event, sofar) => {
        if (event.type === 'audio-chunk' && sofar.chunks.length === 1) statusAtFirstChunk = (await task(sofar.start?.data.timbre_task_id)).status;
      });
      return { reply, sentAt, statusAtFirstChunk };
    });
    await assertSpeech(reply, voice);
    const first = reply.chunks[0]!.receivedAt - sentAt;
    const last = reply.stop!.receivedAt - sentAt;
    // The service itself says the synthesis had not finished when the first chunk was here…
    assert.equal(statusAtFirstChunk, 'running');
    // …and the audio did not come as one burst at the end: the first chunk came in the first half of the wait.
    assert.ok(first < last / 2, `first chunk after ${first.toFixed(0)} ms, audio-stop after ${last.toFixed(0)} ms`);
    const done = await task(reply.start!.data.timbre_task_id);
    assert.ok(reply.chunks[0]!.receivedAt < Date.parse(done.updated_at), `first chunk at ${reply.chunks[0]!.receivedAt}, completed at ${done.updated_at}`);
  });

  test('streaming synthesis (synthesize-start, chunks cut mid-sentence, the compatibility synthesize, synthesize-stop): audio per sentence, then synthesize-stopped', async () => {
    const voice = englishVoice('pico');
    const sentences = ['The front door is locked.', 'All the windows are closed.', 'Good night.'];
    const events = await talk(async (client) => {
      await client.send('synthesize-start', { voice: { name: voice } });
      for (const piece of ['The front door is lo', 'cked. All the windows', ' are closed. Good night.']) await client.send('synthesize-chunk', { text: piece });
      // Home Assistant also sends the whole text as a plain synthesize for servers without streaming; a streaming server ignores it.
      await client.send('synthesize', { text: sentences.join(' '), voice: { name: voice } });
      await client.send('synthesize-stop');
      const replies: AudioReply[] = [];
      for (let index = 0; index < sentences.length; index++) replies.push(await readAudio(client));
      await client.expect('synthesize-stopped');
      await client.send('ping', { text: 'after' });
      return { replies, next: await client.expect('pong') };
    });
    for (const [index, reply] of events.replies.entries()) {
      await assertSpeech(reply, voice);
      assert.equal((await task(reply.start!.data.timbre_task_id)).text?.trim(), sentences[index]);
    }
    assert.equal(events.next.data.text, 'after', 'nothing (no second copy of the audio) between synthesize-stopped and the pong');
  });

  test('transcribe jfk.wav sent as 44.1 kHz stereo 16-bit chunks of 100 ms → the transcript the REST route gives for the file', async () => {
    const file = `${REFERENCE_AUDIO}/jfk.wav`;
    const pcm = await rawPcm(file, 44_100, 2);
    const transcript = await talk(async (client) => {
      await client.send('transcribe', { language: 'en' });
      await sendAudio(client, pcm, { rate: 44_100, width: 2, channels: 2 }, 100);
      return client.expect('transcript', 120_000);
    });
    const rest = await postMultipart(wyoming.timbre.url, key.key, '/api/transcribe', [{ name: 'jfk.wav', bytes: await readFile(file) }]);
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    // The recognizer hears the same speech either way: the REST route's text, word for word.
    assert.ok(wordErrorRate(JFK, transcript.data.text) <= WER_THRESHOLDS.jfk, transcript.data.text);
    assert.equal(transcript.data.text, rest.body.text);
    assert.match(transcript.data.text, /country/i);
    assert.equal(transcript.data.language, 'en');
  });

  test('a voice that does not exist: an error voice_not_found and no audio', async () => {
    const { reply, after } = await talk(async (client) => {
      const reply = await synthesize(client, 'Hello there.', 'nobody:nothing');
      await client.send('ping', { text: 'still here?' });
      return { reply, after: await client.next() };
    });
    assert.deepEqual(
      reply.events.map((event) => event.type),
      ['error'],
    );
    assert.equal(reply.error?.data.code, 'voice_not_found');
    assert.equal(typeof reply.error?.data.text, 'string');
    // Either the connection carries on (the pong comes next, no audio before it) or the server closed it.
    assert.ok(after === undefined || after.type === 'pong', JSON.stringify(after?.type));
  });

  test('a text over the service’s limit gets text_too_long, audio 5 bytes wide gets invalid_audio; neither brings audio or a transcript', async () => {
    const tooLong = await talk((client) => synthesize(client, 'All work and no play. '.repeat(300), englishVoice('espeak')));
    assert.deepEqual(
      tooLong.events.map((event) => event.type),
      ['error'],
    );
    assert.equal(tooLong.error?.data.code, 'text_too_long');
    const badAudio = await talk(async (client) => {
      await client.send('transcribe', { language: 'en' });
      await sendAudio(client, Buffer.alloc(5 * 16_000), { rate: 16_000, width: 5, channels: 1 });
      return client.next();
    });
    assert.equal(badAudio?.type, 'error');
    assert.equal(badAudio.data.code, 'invalid_audio');
  });

  test('a 10 MB payload and a 100 KB header line: an error or a closed connection, and the server still answers new ones', async () => {
    for (const send of [
      (client: WyomingClient) => client.send('audio-chunk', { rate: 16_000, width: 2, channels: 1 }, Buffer.alloc(10 * 1024 * 1024, 1)),
      (client: WyomingClient) => client.sendRaw(Buffer.from(`{"type":"synthesize","data":{"text":"${'a'.repeat(100 * 1024)}"}}\n`)),
    ]) {
      const refused = await talk(async (client) => {
        void send(client);
        const events: WyomingEvent[] = [];
        for (let event = await client.next(); event; event = await client.next()) events.push(event);
        return events;
      });
      assert.ok(
        refused.every((event) => event.type === 'error'),
        refused.map((event) => event.type).join(' '),
      );
      const pong = await talk(async (client) => {
        await client.send('ping', { text: 'next' });
        return client.expect('pong');
      });
      assert.equal(pong.data.text, 'next');
    }
    assert.equal((await request(wyoming.timbre.url, 'GET', '/api/system/status', { key: key.key })).status, 200);
  });
});
