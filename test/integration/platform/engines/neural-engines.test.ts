import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rms, type Pcm } from '../../../../src/platform/audio/pcm.js';
import { join as joinPcm, silence, sine } from '../../../helpers/audio-signals.js';
import { k2fsaVadModel } from '../../../helpers/stand-in-vad.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { createKokoroEngine } from '../../../../src/platform/engines/sherpa/kokoro.js';
import { createPocketTtsEngine, POCKET_VOICE_ID } from '../../../../src/platform/engines/sherpa/pocket-tts.js';
import { createSileroVadEngine } from '../../../../src/platform/engines/sherpa/silero-vad.js';
import { createSpeakerEmbeddingEngine } from '../../../../src/platform/engines/sherpa/speaker-embedding.js';
import { createWhisperEngine } from '../../../../src/platform/engines/sherpa/whisper.js';
import type { JobContext, Synthesizer } from '../../../../src/platform/engines/types.js';
import {
  buildKokoro,
  buildPocket,
  buildWhisper,
  decodeKokoroCalls,
  KOKORO_NAMES,
  readKokoroVoices,
  SHARED_MODELS,
  speakerEmbeddingModel,
  WHISPER_TEXT,
} from '../../../helpers/stand-in-models.js';

// Every model loaded in this process has passed validation (or is the real Silero VAD), which is
// what keeps the native code from crashing the test process; bad models are in model-validation.

const job = (signal: AbortSignal = new AbortController().signal): JobContext => ({ signal, progress: () => undefined });
const reference = async (name: string): Promise<Pcm> => parseWav(await readFile(join(SHARED_MODELS, 'pocket-tts/reference', name)));
const ROW = 510 * 256;

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timbre-neural-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Silero VAD', () => {
  test("sherpa-onnx's own export layout (x, h, c in; prob, new_h, new_c out) validates and runs in sherpa's Vad", async () => {
    await mkdir(join(dir, 'vad-k2'));
    await writeFile(join(dir, 'vad-k2/silero_vad.onnx'), k2fsaVadModel());
    const engine = createSileroVadEngine(join(dir, 'vad-k2'));
    assert.deepEqual(await engine.probe(), { available: true });
    const vad = await engine.load();
    const pcm = joinPcm(silence(1, 16000), sine(300, 1.5, 16000, 0.3), silence(1.5, 16000));
    const regions = await vad.detect(pcm, job());
    assert.equal(regions.length, 1, JSON.stringify(regions));
    assert.ok(Math.abs(regions[0]!.start - 1) < 0.1 && Math.abs(regions[0]!.end - 2.5) < 0.35, JSON.stringify(regions));
  });

  test('the upstream v5 file (../shared/models/asr) finds the speech in jfk.wav', async () => {
    const engine = createSileroVadEngine(join(SHARED_MODELS, 'asr'));
    assert.deepEqual(await engine.probe(), { available: true });
    const vad = await engine.load();
    const regions = await vad.detect(await reference('jfk.wav'), job());
    assert.ok(regions.length >= 2, `${regions.length} regions`);
    for (const region of regions) assert.ok(region.start >= 0 && region.end > region.start && region.end <= 11.01, JSON.stringify(region));
    const covered = regions.reduce((sum, { start, end }) => sum + Math.max(0, Math.min(end, 10.6) - Math.max(start, 0.3)), 0);
    assert.ok(covered > 0.6 * (10.6 - 0.3), `speech covers ${covered.toFixed(2)} s of 0.3–10.6 s`);
  });
});

describe('Kokoro (stand-in model, real voices.bin and tokens.txt)', () => {
  let kokoro: Synthesizer;
  let voices: Float32Array;
  const styleRow = (style: Float32Array, phonemes: number) => style.subarray(phonemes * 256, (phonemes + 1) * 256);

  before(async () => {
    await buildKokoro(join(dir, 'kokoro'), { lexiconZh: true });
    kokoro = await createKokoroEngine(join(dir, 'kokoro')).load();
    voices = await readKokoroVoices();
  });

  test('lists the 48 voices of its 8 languages (no Japanese) with gender, each with its own style array', async () => {
    const list = await kokoro.listVoices();
    assert.deepEqual(
      list.map((voice) => voice.id),
      KOKORO_NAMES.filter((name) => !name.startsWith('j')).map((name) => `kokoro:${name}`),
    );
    assert.deepEqual(kokoro.capabilities.languages, ['en-US', 'en-GB', 'es', 'fr', 'hi', 'it', 'pt-BR', 'zh']);
    const heart = list.find((voice) => voice.id === 'kokoro:af_heart');
    assert.equal(heart?.language, 'en-US');
    assert.equal(heart?.gender, 'female');
    assert.equal(list.find((voice) => voice.id === 'kokoro:bm_george')?.language, 'en-GB');
    assert.equal(list.find((voice) => voice.id === 'kokoro:zm_yunxi')?.gender, 'male');
    for (const [sid, name] of KOKORO_NAMES.entries()) {
      if (name.startsWith('j')) continue;
      assert.deepEqual(await kokoro.voiceVector?.(`kokoro:${name}`), voices.slice(sid * ROW, (sid + 1) * ROW), name);
    }
  });

  test('every voice synthesizes with its own language; Mandarin goes through lexicon-zh.txt', async () => {
    for (const name of KOKORO_NAMES.filter((voice) => !/^[jz]/.test(voice))) {
      const { pcm } = await kokoro.synthesize({ text: 'Hello.', voice: `kokoro:${name}` }, job());
      assert.equal(pcm.sampleRate, 24000);
      assert.ok(pcm.samples.length > 0, name);
    }
    const { pcm } = await kokoro.synthesize({ text: '你好。', voice: 'kokoro:zf_xiaoxiao' }, job());
    const tokens = decodeKokoroCalls(pcm.samples).flatMap((call) => call.tokens);
    // n i x a u, the stand-in lexicon's readings, by their ids in tokens.txt.
    for (const id of [56, 51, 66, 43, 63]) assert.ok(tokens.includes(id), `token ${id} in ${tokens.join(' ')}`);
  });

  test("the chosen voice's style row and the speed reach the model", async () => {
    const { pcm } = await kokoro.synthesize({ text: 'Hello world. This is a test.', voice: 'kokoro:am_adam', speed: 1.25 }, job());
    const style = await kokoro.voiceVector!('kokoro:am_adam');
    const calls = decodeKokoroCalls(pcm.samples);
    assert.ok(calls.length >= 1);
    for (const call of calls) {
      assert.deepEqual(call.style, styleRow(style, call.tokens.length - 2));
      assert.equal(call.speed, 1.25);
    }
  });

  test('a streaming caller gets each sentence as it is generated, together the whole audio', async () => {
    const pieces: Pcm[] = [];
    const context: JobContext = { ...job(), audio: (piece) => void pieces.push(piece.pcm) };
    const { pcm } = await kokoro.synthesize({ text: 'Hello world. This is a test. And a third one.', voice: 'kokoro:am_adam' }, context);
    assert.ok(pieces.length >= 2, `${pieces.length} pieces`);
    assert.equal(
      pieces.reduce((sum, piece) => sum + piece.samples.length, 0),
      pcm.samples.length,
    );
    assert.ok(pieces.every((piece) => piece.sampleRate === pcm.sampleRate));
  });

  test('a blended style reaches the model', async () => {
    const heart = await kokoro.voiceVector!('kokoro:af_heart');
    const george = await kokoro.voiceVector!('kokoro:bm_george');
    const blend = heart.map((value, i) => 0.7 * value + 0.3 * (george[i] as number));
    const { pcm } = await kokoro.synthesize({ text: 'Hello world.', voice: 'kokoro:af_heart', style: blend }, job());
    for (const call of decodeKokoroCalls(pcm.samples)) assert.deepEqual(call.style, styleRow(blend, call.tokens.length - 2));
  });

  test('cancellation rejects with the abort reason', async () => {
    const controller = new AbortController();
    const context: JobContext = { signal: controller.signal, progress: () => controller.abort(new Error('cancelled by test')) };
    const text = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    await assert.rejects(kokoro.synthesize({ text, voice: 'kokoro:af_heart' }, context), /cancelled by test/);
  });

  test('unknown voices and languages are refused before sherpa sees them', async () => {
    await assert.rejects(kokoro.synthesize({ text: 'Hi.', voice: 'kokoro:xx_nobody' }, job()), { code: 'voice_not_found' });
    await assert.rejects(kokoro.synthesize({ text: 'Hi.', voice: 'kokoro:af_heart', language: 'de' }, job()), { code: 'language_not_supported' });
    await assert.rejects(kokoro.synthesize({ text: 'こんにちは。', voice: 'kokoro:af_heart', language: 'ja' }, job()), { code: 'language_not_supported' });
    await assert.rejects(kokoro.synthesize({ text: 'Hi.', voice: 'kokoro:jf_alpha' }, job()), { code: 'voice_not_found' });
    await assert.rejects(kokoro.synthesize({ text: ' ', voice: 'kokoro:af_heart' }, job()), { code: 'text_empty' });
    await assert.rejects(kokoro.synthesize({ text: 'Hi.', voice: 'kokoro:af_heart', style: new Float32Array(256) }, job()), { code: 'invalid_style' });
  });
});

describe('Pocket TTS (stand-in model, real tokenizer files)', () => {
  test('the reference audio reaches the model', async () => {
    await buildPocket(join(dir, 'pocket'));
    const pocket = await createPocketTtsEngine(join(dir, 'pocket')).load();
    const peaks: number[] = [];
    const levels: number[] = [];
    for (const name of ['jfk.wav', 'LJ001-0001.wav']) {
      const audio = await reference(name);
      const { pcm } = await pocket.synthesize({ text: 'Hello world.', voice: POCKET_VOICE_ID, referenceAudio: audio, seed: 7 }, job());
      assert.equal(pcm.sampleRate, 24000);
      peaks.push(pcm.samples.reduce((peak, sample) => Math.max(peak, Math.abs(sample)), 0));
      levels.push(rms(audio.samples.subarray(0, 10 * audio.sampleRate)));
    }
    // The stand-in's output peak is the reference's RMS (sherpa resamples it, hence the tolerance).
    for (const [i, peak] of peaks.entries()) assert.ok(Math.abs(peak - levels[i]!) / levels[i]! < 0.05, `peak ${peak} vs RMS ${levels[i]}`);
    await assert.rejects(pocket.synthesize({ text: 'Hi.', voice: POCKET_VOICE_ID }, job()), { code: 'reference_audio_required' });
  });
});

describe('Whisper (stand-in model)', () => {
  test('returns the model text for speech, nothing for silence, and chunks long audio', async () => {
    await buildWhisper(join(dir, 'whisper'));
    const whisper = await createWhisperEngine(join(dir, 'whisper')).load();
    const jfk = await reference('jfk.wav');
    const speech = await whisper.recognize({ pcm: jfk }, job());
    assert.equal(speech.text, WHISPER_TEXT);
    assert.equal(speech.language, 'en');
    assert.equal((await whisper.recognize({ pcm: { samples: new Float32Array(32000), sampleRate: 16000 } }, job())).text, '');
    // Fewer than 80 samples would crash sherpa; the engine pads.
    assert.equal((await whisper.recognize({ pcm: { samples: new Float32Array(40), sampleRate: 16000 } }, job())).text, '');
    const long = new Float32Array(jfk.samples.length * 6);
    for (let i = 0; i < 6; i++) long.set(jfk.samples, i * jfk.samples.length);
    const transcript = await whisper.recognize({ pcm: { samples: long, sampleRate: 16000 } }, job());
    assert.ok(transcript.segments.length >= 3, `${transcript.segments.length} segments for 66 s`);
    assert.ok(transcript.segments.every((segment) => segment.text === WHISPER_TEXT && segment.end - segment.start <= 28.001));
    assert.ok(Math.abs(transcript.segments.at(-1)!.end - 66) < 0.01);
    await assert.rejects(whisper.recognize({ pcm: jfk, language: 'de' }, job()), { code: 'language_not_supported' });
  });
});

describe('speaker embedding (stand-in model)', () => {
  test('returns vectors and a similarity in 0..1', async () => {
    await mkdir(join(dir, 'speaker'), { recursive: true });
    await writeFile(join(dir, 'speaker/wespeaker_stand_in.onnx'), speakerEmbeddingModel());
    const printer = await createSpeakerEmbeddingEngine(join(dir, 'speaker')).load();
    const jfk = await reference('jfk.wav');
    const a = await printer.extract(jfk, job());
    const b = await printer.extract(jfk, job());
    const c = await printer.extract(await reference('LJ001-0001.wav'), job());
    assert.equal(a.method, 'speaker-embedding:wespeaker_stand_in');
    assert.equal(a.vector.length, 16);
    assert.ok(Math.abs(printer.similarity(a, b) - 1) < 1e-6);
    const other = printer.similarity(a, c);
    assert.ok(other >= 0 && other <= 1, String(other));
  });
});
