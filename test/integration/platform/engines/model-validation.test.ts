import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { checkFile, checkOnnx } from '../../../../src/platform/engines/model-files.js';
import { createKokoroEngine } from '../../../../src/platform/engines/sherpa/kokoro.js';
import { createSpeakerEmbeddingEngine } from '../../../../src/platform/engines/sherpa/speaker-embedding.js';
import { createWhisperEngine } from '../../../../src/platform/engines/sherpa/whisper.js';
import type { EngineDescriptor } from '../../../../src/platform/engines/types.js';
import { buildKokoro, buildWhisper, kokoroModel, SHARED_MODELS, speakerEmbeddingModel } from '../../../helpers/stand-in-models.js';
import { REPO_ROOT } from '../../../helpers/paths.js';

// Each of these files would kill a process that handed it to sherpa (SIGABRT, SIGSEGV or exit 255).
// probe() never loads native code and load() validates first, so both refuse with model_invalid.

const run = promisify(execFile);
let dir: string;

async function kokoroWith(name: string, change: (modelDir: string) => Promise<void>): Promise<string> {
  const modelDir = join(dir, name);
  await buildKokoro(modelDir);
  await change(modelDir);
  return modelDir;
}

async function speakerWith(name: string, model: Buffer): Promise<string> {
  const modelDir = join(dir, name);
  await mkdir(modelDir, { recursive: true });
  await writeFile(join(modelDir, 'model.onnx'), model);
  return modelDir;
}

async function assertRefused(engine: EngineDescriptor, problem: RegExp): Promise<void> {
  const availability = await engine.probe();
  assert.equal(availability.available, false);
  assert.match(availability.reason ?? '', problem);
  await assert.rejects(engine.load(), (error: { code?: string; details?: { problem?: string } }) => {
    assert.equal(error.code, 'model_invalid');
    assert.match(error.details?.problem ?? '', problem);
    return true;
  });
}

const cases: { name: string; family: 'kokoro' | 'speaker-embedding' | 'whisper'; problem: RegExp; make: () => Promise<string> }[] = [
  {
    name: 'kokoro-random',
    family: 'kokoro',
    problem: /not a valid ONNX model/,
    make: () => kokoroWith('kokoro-random', (d) => writeFile(join(d, 'model.int8.onnx'), randomBytes(4096))),
  },
  {
    name: 'kokoro-truncated',
    family: 'kokoro',
    problem: /not a valid ONNX model/,
    make: () => kokoroWith('kokoro-truncated', (d) => writeFile(join(d, 'model.int8.onnx'), kokoroModel().subarray(0, 700))),
  },
  {
    name: 'kokoro-empty',
    family: 'kokoro',
    problem: /expected at least 1/,
    make: () => kokoroWith('kokoro-empty', (d) => writeFile(join(d, 'model.int8.onnx'), '')),
  },
  {
    name: 'kokoro-no-n_speakers',
    family: 'kokoro',
    problem: /metadata lacks n_speakers/,
    make: () => kokoroWith('kokoro-no-n_speakers', (d) => writeFile(join(d, 'model.int8.onnx'), kokoroModel({ omitMetadata: ['n_speakers'] }))),
  },
  {
    name: 'kokoro-short-voices',
    family: 'kokoro',
    problem: /size is 27678716 bytes, expected 27678720/,
    make: () => kokoroWith('kokoro-short-voices', (d) => truncate(join(d, 'voices.bin'), 27678716)),
  },
  {
    name: 'speaker-no-framework',
    family: 'speaker-embedding',
    problem: /metadata lacks framework/,
    make: () => speakerWith('speaker-no-framework', speakerEmbeddingModel({ omitMetadata: ['framework'] })),
  },
  {
    name: 'speaker-framework-foo',
    family: 'speaker-embedding',
    problem: /framework="foo"/,
    make: () => speakerWith('speaker-framework-foo', speakerEmbeddingModel({ metadata: { framework: 'foo' } })),
  },
  {
    name: 'speaker-normalize-none',
    family: 'speaker-embedding',
    problem: /feature_normalize_type="none"/,
    make: () => speakerWith('speaker-normalize-none', speakerEmbeddingModel({ metadata: { feature_normalize_type: 'none' } })),
  },
  {
    name: 'speaker-wrong-dim',
    family: 'speaker-embedding',
    problem: /output_dim=32 but the model outputs 16/,
    make: () => speakerWith('speaker-wrong-dim', speakerEmbeddingModel({ metadata: { output_dim: 32 } })),
  },
  {
    name: 'whisper-no-sot_sequence',
    family: 'whisper',
    problem: /metadata lacks sot_sequence/,
    make: async () => {
      await buildWhisper(join(dir, 'whisper-no-sot_sequence'), { omitMetadata: ['sot_sequence'] });
      return join(dir, 'whisper-no-sot_sequence');
    },
  },
];

const factories = { kokoro: createKokoroEngine, 'speaker-embedding': createSpeakerEmbeddingEngine, whisper: createWhisperEngine };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timbre-bad-models-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('model file validation', () => {
  for (const { name, family, problem, make } of cases) {
    test(`${name}: probe and load refuse with model_invalid`, async () => {
      await assertRefused(factories[family](await make()), problem);
    });
  }

  test('a missing model file is reported, not loaded', async () => {
    await assertRefused(createKokoroEngine(join(dir, 'nowhere')), /missing/);
  });

  test('size and sha256 expectations', async () => {
    const file = join(SHARED_MODELS, 'asr/silero_vad.onnx');
    await checkFile(file, { size: 2327524, sha256: '1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3' });
    await assert.rejects(checkFile(file, { size: 1 }), { code: 'model_invalid' });
    await assert.rejects(checkFile(file, { sha256: '00' }), /sha256 is 1a153a22/);
  });

  test('reads the metadata and I/O of a model without loading it', async () => {
    const file = join(dir, 'model.onnx');
    await writeFile(file, speakerEmbeddingModel());
    const info = await checkOnnx(file);
    assert.equal(info.metadata.framework, 'wespeaker');
    assert.deepEqual(info.inputs, [{ name: 'feats', elemType: 1, dims: [1, 'T', 80] }]);
    assert.deepEqual(
      (await checkOnnx(join(SHARED_MODELS, 'asr/silero_vad.onnx'))).inputs.map((input) => input.name),
      ['input', 'state', 'sr'],
    );
    assert.ok((await readFile(file)).length < 10_000);
  });

  test('loading the bad models in a child process ends in errors, not a crash', async () => {
    const child = join(REPO_ROOT, 'test/helpers/load-engine-child.ts');
    for (const { name, family } of cases) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', child, family, join(dir, name)]);
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { loaded: boolean; code: string };
      assert.deepEqual({ name, loaded: outcome.loaded, code: outcome.code }, { name, loaded: false, code: 'model_invalid' });
    }
  });
});
