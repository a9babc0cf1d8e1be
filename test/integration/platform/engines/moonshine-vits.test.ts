import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { createMoonshineEngine } from '../../../../src/platform/engines/sherpa/moonshine.js';
import { createVitsEngine } from '../../../../src/platform/engines/sherpa/vits.js';
import type { EngineDescriptor, JobContext } from '../../../../src/platform/engines/types.js';
import { DT } from '../../../helpers/onnx-builder.js';
import { SHARED_MODELS, REPO_ROOT } from '../../../helpers/paths.js';
import { buildMoonshine, encodeModel, MOONSHINE_TEXT } from '../../../helpers/stand-in-moonshine.js';
import { buildVits, decodeVitsCalls, vitsTokens } from '../../../helpers/stand-in-vits.js';

// Models that pass validation are loaded in this process; each bad one is also handed to load()
// in a child process, where a crash would show as a non-zero exit instead of killing the tests.

const run = promisify(execFile);
const job = (signal: AbortSignal = new AbortController().signal): JobContext => ({ signal, progress: () => undefined });
const reference = async (name: string): Promise<Pcm> => parseWav(await readFile(join(SHARED_MODELS, 'pocket-tts/reference', name)));
const ENGINES = { moonshine: createMoonshineEngine, vits: createVitsEngine };

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timbre-moonshine-vits-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Moonshine (stand-in model)', () => {
  test('returns the model text for speech and nothing for silence or very short audio', async () => {
    await buildMoonshine(join(dir, 'moonshine'));
    const engine = createMoonshineEngine(join(dir, 'moonshine'));
    assert.deepEqual(await engine.probe(), { available: true });
    const moonshine = await engine.load();
    const jfk = await reference('jfk.wav');
    const speech = await moonshine.recognize({ pcm: jfk }, job());
    assert.equal(speech.text, MOONSHINE_TEXT);
    assert.equal(speech.language, 'en');
    assert.ok(Math.abs(speech.duration - 11) < 0.01);
    // A 24 kHz recording is resampled by sherpa.
    assert.equal((await moonshine.recognize({ pcm: await reference('LJ001-0001.wav'), language: 'en-US' }, job())).text, MOONSHINE_TEXT);
    assert.equal((await moonshine.recognize({ pcm: { samples: new Float32Array(32000), sampleRate: 16000 } }, job())).text, '');
    // Fewer samples than the preprocessor's first convolution: sherpa catches the error itself.
    for (const length of [0, 40, 500]) {
      const pcm = { samples: jfk.samples.slice(16000, 16000 + length), sampleRate: 16000 };
      assert.deepEqual((await moonshine.recognize({ pcm }, job())).segments, []);
    }
    await assert.rejects(moonshine.recognize({ pcm: jfk, language: 'de' }, job()), { code: 'language_not_supported' });
    const controller = new AbortController();
    controller.abort(new Error('cancelled by test'));
    await assert.rejects(moonshine.recognize({ pcm: jfk }, job(controller.signal)), /cancelled by test/);
  });
});

describe('VITS / Piper (stand-in model, Debian espeak-ng-data)', () => {
  test('single speaker: one voice, phoneme ids and scales reach the model, speed sets the length scale', async () => {
    const engine = createVitsEngine(await buildVits(join(dir, 'vits-one')));
    assert.deepEqual(await engine.probe(), { available: true });
    const vits = await engine.load();
    const voices = await vits.listVoices();
    assert.deepEqual(
      voices.map((voice) => [voice.id, voice.language, voice.sampleRate]),
      [['vits:en_US-stand_in-medium', 'en-US', 22050]],
    );
    const { pcm } = await vits.synthesize({ text: 'Hello world. This is a test.', voice: 'vits:en_US-stand_in-medium', speed: 1.25 }, job());
    assert.equal(pcm.sampleRate, 22050);
    const calls = decodeVitsCalls(pcm.samples);
    assert.equal(calls.length, 2);
    for (const call of calls) {
      // Piper's framing: start symbol, each phoneme followed by the pad, end symbol.
      assert.match(call.phonemes, /^\^(_[^_^$])+_\$$/);
      assert.ok(Math.abs(call.lengthScale - 0.8) < 1e-6, String(call.lengthScale));
      assert.ok(Math.abs(call.noiseScale - 0.667) < 1e-6 && Math.abs(call.noiseScaleW - 0.8) < 1e-6);
      assert.equal(call.sid, -1);
    }
    assert.equal(calls[0]?.phonemes.replaceAll('_', ''), '^həlˈoʊ wˈɜːld.$');
    const slow = decodeVitsCalls((await vits.synthesize({ text: 'Hello.', voice: 'vits:en_US-stand_in-medium', speed: 0.5 }, job())).pcm.samples);
    assert.equal(slow[0]?.lengthScale, 2);
    await assert.rejects(vits.synthesize({ text: 'Hi.', voice: 'vits:other' }, job()), { code: 'voice_not_found' });
    await assert.rejects(vits.synthesize({ text: 'Hi.', voice: 'vits:en_US-stand_in-medium', language: 'de' }, job()), { code: 'language_not_supported' });
    await assert.rejects(vits.synthesize({ text: ' ', voice: 'vits:en_US-stand_in-medium' }, job()), { code: 'text_empty' });
    const controller = new AbortController();
    const context: JobContext = { signal: controller.signal, progress: () => controller.abort(new Error('cancelled by test')) };
    const text = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    await assert.rejects(vits.synthesize({ text, voice: 'vits:en_US-stand_in-medium' }, context), /cancelled by test/);
  });

  test('multi-speaker: one voice per sid, and the sample rate and language come from the metadata', async () => {
    const modelDir = await buildVits(join(dir, 'vits-three'), { name: 'voices-medium', speakers: 3, metadata: { sample_rate: 16000, voice: 'en-gb-x-rp' } });
    const vits = await createVitsEngine(modelDir).load();
    const voices = await vits.listVoices();
    assert.deepEqual(
      voices.map((voice) => voice.id),
      ['vits:voices-medium#0', 'vits:voices-medium#1', 'vits:voices-medium#2'],
    );
    assert.ok(voices.every((voice) => voice.language === 'en-GB' && voice.sampleRate === 16000));
    const { pcm } = await vits.synthesize({ text: 'Hello.', voice: 'vits:voices-medium#2' }, job());
    assert.equal(pcm.sampleRate, 16000);
    assert.deepEqual(
      decodeVitsCalls(pcm.samples).map((call) => [call.sid, call.lengthScale]),
      [[2, 1]],
    );
  });
});

const bad: { name: string; family: keyof typeof ENGINES; problem: RegExp; make: (modelDir: string) => Promise<unknown> }[] = [
  {
    name: 'moonshine-missing-cached',
    family: 'moonshine',
    problem: /missing/,
    make: async (d) => {
      await buildMoonshine(d);
      await rm(join(d, 'cached_decode.int8.onnx'));
    },
  },
  {
    name: 'moonshine-random-encoder',
    family: 'moonshine',
    problem: /not a valid ONNX model/,
    make: async (d) => {
      await buildMoonshine(d);
      await writeFile(join(d, 'encode.int8.onnx'), randomBytes(4096));
    },
  },
  {
    name: 'moonshine-int64-len',
    family: 'moonshine',
    problem: /expected int32/,
    make: async (d) => {
      await buildMoonshine(d);
      await writeFile(join(d, 'encode.int8.onnx'), encodeModel(DT.INT64));
    },
  },
  {
    name: 'moonshine-no-tokens',
    family: 'moonshine',
    problem: /tokens.txt: missing/,
    make: async (d) => {
      await buildMoonshine(d);
      await rm(join(d, 'tokens.txt'));
    },
  },
  {
    name: 'vits-no-onnx',
    family: 'vits',
    problem: /missing/,
    make: async (d) => {
      await buildVits(d);
      await rm(join(d, 'en_US-stand_in-medium.onnx'));
    },
  },
  {
    name: 'vits-truncated',
    family: 'vits',
    problem: /not a valid ONNX model/,
    make: async (d) => {
      await buildVits(d);
      await writeFile(join(d, 'en_US-stand_in-medium.onnx'), (await readFile(join(d, 'en_US-stand_in-medium.onnx'))).subarray(0, 600));
    },
  },
  { name: 'vits-no-comment', family: 'vits', problem: /metadata lacks comment/, make: (d) => buildVits(d, { omitMetadata: ['comment'] }) },
  { name: 'vits-no-sample_rate', family: 'vits', problem: /metadata lacks sample_rate/, make: (d) => buildVits(d, { omitMetadata: ['sample_rate'] }) },
  { name: 'vits-bad-voice', family: 'vits', problem: /voice="en-gb" is not an espeak-ng voice/, make: (d) => buildVits(d, { metadata: { voice: 'en-gb' } }) },
  { name: 'vits-int32-lengths', family: 'vits', problem: /inputs are/, make: (d) => buildVits(d, { int32Lengths: true }) },
  {
    name: 'vits-no-pad-token',
    family: 'vits',
    problem: /pad\/start\/end symbols _/,
    make: async (d) => {
      await buildVits(d);
      await writeFile(join(d, 'tokens.txt'), vitsTokens().replace(/^_ 0\n/, ''));
    },
  },
  {
    name: 'vits-blank-token-line',
    family: 'vits',
    problem: /line 16 is not/,
    make: async (d) => {
      await buildVits(d);
      await writeFile(join(d, 'tokens.txt'), vitsTokens().replace('a 14\n', 'a 14\n\n'));
    },
  },
];

describe('Moonshine and VITS file validation', () => {
  for (const { name, family, problem, make } of bad) {
    test(`${name}: probe and load refuse with model_invalid`, async () => {
      await make(join(dir, name));
      const engine: EngineDescriptor = ENGINES[family](join(dir, name));
      const availability = await engine.probe();
      assert.equal(availability.available, false);
      assert.equal(availability.code, 'model_invalid');
      assert.match(availability.reason ?? '', problem);
      await assert.rejects(engine.load(), { code: 'model_invalid' });
    });
  }

  test('loading the bad models in a child process ends in errors, not a crash', async () => {
    for (const { name, family } of bad) {
      const module = join(REPO_ROOT, `src/platform/engines/sherpa/${family}.ts`);
      const factory = ENGINES[family].name;
      const code = `import { ${factory} } from ${JSON.stringify(module)};
        try { await ${factory}(${JSON.stringify(join(dir, name))}).load(); console.log(JSON.stringify({ loaded: true })); }
        catch (error) { console.log(JSON.stringify({ loaded: false, code: error.code })); }`;
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 60_000 });
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { loaded: boolean; code: string };
      assert.deepEqual({ name, ...outcome }, { name, loaded: false, code: 'model_invalid' });
    }
  });
});
