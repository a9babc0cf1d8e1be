import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { createKittenEngine } from '../../../../src/platform/engines/sherpa/kitten.js';
import { createZipVoiceEngine, ZIPVOICE_VOICE_ID } from '../../../../src/platform/engines/sherpa/zipvoice.js';
import type { EngineDescriptor, JobContext, Synthesizer } from '../../../../src/platform/engines/types.js';
import { buildKitten, KITTEN_NAMES, kittenModel, kittenStyle } from '../../../helpers/stand-in-kitten.js';
import { REFERENCE_AUDIO, REPO_ROOT } from '../../../helpers/paths.js';
import { decodeKokoroCalls } from '../../../helpers/stand-in-models.js';
import { buildZipVoice, vocosVocoder, ZIPVOICE_HOP, zipvoiceDecoder } from '../../../helpers/stand-in-zipvoice.js';

// Only validated models are loaded in this process; the bad ones are loaded in a child process.

const run = promisify(execFile);
const job = (signal: AbortSignal = new AbortController().signal): JobContext => ({ signal, progress: () => undefined });
const reference = async (name: string): Promise<Pcm> => parseWav(await readFile(join(REFERENCE_AUDIO, name)));
const peak = (samples: Float32Array) => samples.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);
const cancelOnProgress = (): JobContext => {
  const controller = new AbortController();
  return { signal: controller.signal, progress: () => controller.abort(new Error('cancelled by test')) };
};
const LONG_TEXT = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} is here.`).join(' ');

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timbre-kitten-zipvoice-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Kitten (stand-in model)', () => {
  let kitten: Synthesizer;
  before(async () => {
    await buildKitten(join(dir, 'kitten'));
    kitten = await createKittenEngine(join(dir, 'kitten')).load();
  });

  test('lists the voices named in the metadata, each with its style row', async () => {
    const voices = await kitten.listVoices();
    assert.deepEqual(
      voices.map((voice) => voice.id),
      KITTEN_NAMES.map((name) => `kitten:${name}`),
    );
    assert.equal(voices[1]?.gender, 'female');
    assert.equal(voices[0]?.sampleRate, 24000);
    for (const [sid, name] of KITTEN_NAMES.entries()) assert.deepEqual(await kitten.voiceVector?.(`kitten:${name}`), kittenStyle(sid));
  });

  test("the chosen voice's style row and the speed reach the model", async () => {
    const { pcm } = await kitten.synthesize({ text: 'Hello world. This is a test.', voice: 'kitten:expr-voice-3-f', speed: 1.25 }, job());
    assert.equal(pcm.sampleRate, 24000);
    const calls = decodeKokoroCalls(pcm.samples);
    assert.ok(calls.length >= 1);
    for (const call of calls) {
      assert.deepEqual(call.style, kittenStyle(3));
      assert.equal(call.speed, 1.25);
      assert.ok(call.tokens.length > 4, String(call.tokens));
    }
  });

  test('a blended style reaches the model', async () => {
    const blend = kittenStyle(0).map((value, i) => 0.5 * value + 0.5 * (kittenStyle(7)[i] as number));
    const { pcm } = await kitten.synthesize({ text: 'Hello world.', voice: 'kitten:expr-voice-2-m', style: blend }, job());
    for (const call of decodeKokoroCalls(pcm.samples)) assert.deepEqual(call.style, blend);
  });

  test('without speaker_names the voices are numbered', async () => {
    await buildKitten(join(dir, 'kitten-unnamed'), { omitMetadata: ['speaker_names'] });
    const voices = await createKittenEngine(join(dir, 'kitten-unnamed'))
      .load()
      .then((engine) => engine.listVoices());
    assert.deepEqual(
      voices.map((voice) => voice.id),
      KITTEN_NAMES.map((_, sid) => `kitten:${sid}`),
    );
  });

  test('cancellation rejects; bad requests are refused before sherpa sees them', async () => {
    await assert.rejects(kitten.synthesize({ text: LONG_TEXT, voice: 'kitten:expr-voice-2-f' }, cancelOnProgress()), /cancelled by test/);
    await assert.rejects(kitten.synthesize({ text: 'Hi.', voice: 'kitten:nobody' }, job()), { code: 'voice_not_found' });
    await assert.rejects(kitten.synthesize({ text: 'Hi.', voice: 'kitten:expr-voice-2-f', language: 'de' }, job()), { code: 'language_not_supported' });
    await assert.rejects(kitten.synthesize({ text: ' ', voice: 'kitten:expr-voice-2-f' }, job()), { code: 'text_empty' });
    await assert.rejects(kitten.synthesize({ text: 'Hi.', voice: 'kitten:expr-voice-2-f', style: new Float32Array(3) }, job()), { code: 'invalid_style' });
  });
});

describe('ZipVoice (stand-in model)', () => {
  let zipvoice: Synthesizer;
  let jfk: Pcm;
  before(async () => {
    await buildZipVoice(join(dir, 'zipvoice'));
    zipvoice = await createZipVoiceEngine(join(dir, 'zipvoice')).load();
    jfk = await reference('jfk.wav');
  });

  // Output frames = reference frames + text tokens + reference-text tokens (see stand-in-zipvoice.ts).
  const frames = (pcm: Pcm) => pcm.samples.length / ZIPVOICE_HOP + 1;

  test('the reference audio, the reference text and the speed reach the model', async () => {
    const say = (referenceAudio: Pcm, referenceText: string, speed?: number) =>
      zipvoice.synthesize({ text: 'Hello world.', voice: ZIPVOICE_VOICE_ID, referenceAudio, referenceText, speed }, job()).then((result) => result.pcm);
    const base = await say(jfk, 'And so.');
    assert.equal(base.sampleRate, 24000);
    assert.ok(Number.isInteger(frames(base)));
    // A longer transcript means more reference-text tokens (their exact count is espeak's business).
    const longerText = await say(jfk, 'And so my fellow Americans.');
    assert.ok(frames(longerText) > frames(base), `${frames(longerText)} vs ${frames(base)}`);
    // Half the reference audio: its 24 kHz frame count halves (center-padded STFT, hop 256).
    const half: Pcm = { samples: jfk.samples.subarray(0, jfk.samples.length / 2), sampleRate: jfk.sampleRate };
    const fewer = frames(base) - frames(await say(half, 'And so.'));
    const expected = ((jfk.samples.length / 2) * (24000 / jfk.sampleRate)) / ZIPVOICE_HOP;
    assert.ok(Math.abs(fewer - expected) <= 1, `${fewer} frames fewer, expected ${expected}`);
    const fast = await say(jfk, 'And so.', 1.5);
    assert.ok(Math.abs(peak(fast.samples) / peak(base.samples) - 1.5) < 1e-3);
  });

  test('a Mandarin text goes through the lexicon', async () => {
    const { pcm } = await zipvoice.synthesize(
      { text: '你好世界', voice: ZIPVOICE_VOICE_ID, referenceAudio: jfk, referenceText: 'And so.', language: 'zh' },
      job(),
    );
    assert.ok(pcm.samples.length > 0);
  });

  test('requests without reference audio or text are refused; cancellation rejects', async () => {
    const request = { text: 'Hi.', voice: ZIPVOICE_VOICE_ID };
    await assert.rejects(zipvoice.synthesize({ ...request, referenceText: 'And so.' }, job()), { code: 'reference_audio_required' });
    const short: Pcm = { samples: jfk.samples.subarray(0, 1000), sampleRate: jfk.sampleRate };
    await assert.rejects(zipvoice.synthesize({ ...request, referenceAudio: short, referenceText: 'And so.' }, job()), { code: 'reference_audio_required' });
    await assert.rejects(zipvoice.synthesize({ ...request, referenceAudio: jfk }, job()), { code: 'reference_text_required' });
    await assert.rejects(zipvoice.synthesize({ ...request, referenceAudio: jfk, referenceText: '  ' }, job()), { code: 'reference_text_required' });
    await assert.rejects(zipvoice.synthesize({ ...request, voice: 'zipvoice:x', referenceAudio: jfk, referenceText: 'And so.' }, job()), {
      code: 'voice_not_found',
    });
    await assert.rejects(zipvoice.synthesize({ ...request, referenceAudio: jfk, referenceText: 'And so.', language: 'fr' }, job()), {
      code: 'language_not_supported',
    });
    await assert.rejects(
      zipvoice.synthesize({ text: LONG_TEXT, voice: ZIPVOICE_VOICE_ID, referenceAudio: jfk, referenceText: 'And so.' }, cancelOnProgress()),
      /cancelled by test/,
    );
  });
});

type Family = 'kitten' | 'zipvoice';
const factories = { kitten: createKittenEngine, zipvoice: createZipVoiceEngine };

async function variant(family: Family, name: string, change: (modelDir: string) => Promise<unknown>): Promise<string> {
  const modelDir = join(dir, name);
  await (family === 'kitten' ? buildKitten(modelDir) : buildZipVoice(modelDir));
  await change(modelDir);
  return modelDir;
}

const kittenOnnx = (metadata: Parameters<typeof kittenModel>[0]) => (d: string) => writeFile(join(d, 'model.fp16.onnx'), kittenModel(metadata));
const bad: { name: string; family: Family; problem: RegExp; change: (modelDir: string) => Promise<unknown> }[] = [
  { name: 'kitten-random', family: 'kitten', problem: /not a valid ONNX model/, change: (d) => writeFile(join(d, 'model.fp16.onnx'), randomBytes(4096)) },
  { name: 'kitten-no-style_dim', family: 'kitten', problem: /metadata lacks style_dim/, change: kittenOnnx({ omitMetadata: ['style_dim'] }) },
  { name: 'kitten-model-type', family: 'kitten', problem: /model_type="kokoro"/, change: kittenOnnx({ metadata: { model_type: 'kokoro' } }) },
  { name: 'kitten-style-3d', family: 'kitten', problem: /style_dim="1,1,256"/, change: kittenOnnx({ metadata: { style_dim: '1,1,256' } }) },
  { name: 'kitten-priors', family: 'kitten', problem: /speaker_speed_priors/, change: kittenOnnx({ metadata: { speaker_speed_priors: '0.8,0.9' } }) },
  { name: 'kitten-short-voices', family: 'kitten', problem: /size is 8188 bytes, expected 8192/, change: (d) => buildKitten(d, { voicesBytes: 8188 }) },
  { name: 'kitten-no-tokens', family: 'kitten', problem: /missing/, change: (d) => rm(join(d, 'tokens.txt')) },
  {
    name: 'zipvoice-truncated',
    family: 'zipvoice',
    problem: /not a valid ONNX model/,
    change: (d) => writeFile(join(d, 'decoder.int8.onnx'), zipvoiceDecoder().subarray(0, 300)),
  },
  { name: 'zipvoice-no-vocoder', family: 'zipvoice', problem: /missing/, change: (d) => rm(join(d, 'vocos_24khz.onnx')) },
  {
    name: 'zipvoice-hifigan',
    family: 'zipvoice',
    problem: /model_type="hifigan"/,
    change: (d) => writeFile(join(d, 'vocos_24khz.onnx'), vocosVocoder({ model_type: 'hifigan' })),
  },
  { name: 'zipvoice-swapped', family: 'zipvoice', problem: /expected 4 and 1/, change: (d) => writeFile(join(d, 'encoder.int8.onnx'), zipvoiceDecoder()) },
  { name: 'zipvoice-n_fft', family: 'zipvoice', problem: /n_fft="0"/, change: (d) => writeFile(join(d, 'decoder.int8.onnx'), zipvoiceDecoder({ n_fft: 0 })) },
  { name: 'zipvoice-no-lexicon', family: 'zipvoice', problem: /missing/, change: (d) => rm(join(d, 'lexicon.txt')) },
];

async function assertRefused(engine: EngineDescriptor, problem: RegExp): Promise<void> {
  const availability = await engine.probe();
  assert.equal(availability.available, false);
  assert.equal(availability.code, 'model_invalid');
  assert.match(availability.reason ?? '', problem);
  await assert.rejects(engine.load(), (error: { code?: string; details?: { problem?: string } }) => {
    assert.equal(error.code, 'model_invalid');
    assert.match(error.details?.problem ?? '', problem);
    return true;
  });
}

describe('Kitten and ZipVoice model validation', () => {
  for (const { name, family, problem, change } of bad) {
    test(`${name}: probe and load refuse with model_invalid`, async () => {
      await assertRefused(factories[family](await variant(family, name, change)), problem);
    });
  }

  test('a Vocos vocoder exported as "matcha-tts vocos" is accepted, as the runtime accepts it', async () => {
    const folder = await variant('zipvoice', 'zipvoice-matcha-vocos', (d) =>
      writeFile(join(d, 'vocos_24khz.onnx'), vocosVocoder({ model_type: 'matcha-tts vocos' })),
    );
    assert.deepEqual(await factories.zipvoice(folder).probe(), { available: true });
  });

  test('loading the bad models in a child process ends in errors, not a crash', async () => {
    const module = (file: string) => pathToFileURL(join(REPO_ROOT, 'src/platform/engines/sherpa', file)).href;
    const script = `
      const factories = { kitten: (await import(${JSON.stringify(module('kitten.ts'))})).createKittenEngine,
        zipvoice: (await import(${JSON.stringify(module('zipvoice.ts'))})).createZipVoiceEngine };
      const outcomes = [];
      for (const [family, modelDir] of JSON.parse(process.argv[1])) {
        outcomes.push(await factories[family](modelDir).load().then(() => 'loaded', (error) => error.code ?? 'other'));
      }
      console.log(JSON.stringify(outcomes));`;
    const models = bad.map(({ name, family }) => [family, join(dir, name)]);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(models)]);
    assert.deepEqual(
      JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]'),
      bad.map(() => 'model_invalid'),
    );
  });
});
