import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import { EngineHost } from '../../../../src/platform/engines/host/supervisor.js';
import { speakerEmbeddingModel } from '../../../helpers/stand-in-models.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';
import { EngineError } from '../../../../src/platform/errors.js';

async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngineError, String(error));
    return error.code;
  }
  return 'no error';
}

/** A real job: the eSpeak NG engine (a built-in, always installed by set-up) saying a word. */
function speak(host: EngineHost, options: { signal?: AbortSignal } = {}) {
  return host.synthesize('espeak', { text: 'Hello there.', voice: 'espeak:en-us' }, options);
}

const hostOptions = (modelsDir: string) => ({
  modelsDir,
  poolSize: 1,
  jobTimeoutMs: 5_000,
  pieceTimeoutSeconds: 120,
  idleUnloadSeconds: 60,
  memoryLimitBytes: 1024 * 1024 * 1024,
  cancelGraceMs: 500,
  faults: true,
});

describe('corrupt model files', () => {
  let modelsDir: string;
  let host: EngineHost;

  before(async () => {
    modelsDir = await tempDir();
    await mkdir(join(modelsDir, 'silero-vad'));
    await writeFile(join(modelsDir, 'silero-vad', 'silero_vad.onnx'), randomBytes(4096));
    // Without `framework` metadata sherpa-onnx segfaults on load; validation must stop it first.
    await mkdir(join(modelsDir, 'campplus-en-voxceleb'));
    await writeFile(join(modelsDir, 'campplus-en-voxceleb', 'model.onnx'), speakerEmbeddingModel({ omitMetadata: ['framework'] }));
    host = new EngineHost(hostOptions(modelsDir));
  });
  after(async () => {
    await host.close();
    await removeDir(modelsDir);
  });

  test('give model_invalid instead of crashing the host, and the next job succeeds', async () => {
    const pcm = { samples: new Float32Array(16000), sampleRate: 16000 };
    const vad = await host.detect('silero-vad', pcm).catch((error: EngineError) => error);
    assert.equal((vad as EngineError).code, 'model_invalid');
    assert.match((vad as EngineError).message, /silero_vad\.onnx/);
    const embedding = await host.extract('speaker-embedding', pcm).catch((error: EngineError) => error);
    assert.equal((embedding as EngineError).code, 'model_invalid');
    assert.match((embedding as EngineError).message, /framework/);
    assert.ok((await speak(host)).pcm.samples.length > 0);
    assert.equal(host.status().restarts, 0, 'the host never crashed');
  });
});

describe('engine host supervision', () => {
  let host: EngineHost;

  before(() => {
    host = new EngineHost(hostOptions('/nonexistent'));
  });
  after(() => host.close());

  test('a job runs in the host and returns audio', async () => {
    const result = await speak(host);
    assert.ok(result.pcm.samples instanceof Float32Array);
    assert.ok(result.pcm.samples.length > 0);
    assert.ok(host.status().loaded_engines.includes('espeak'));
  });

  test('warm engines that start programs leave each other alone: MBROLA changes voice after Festival started', async () => {
    // Festival started after `mbrola` once inherited its pipes, and libespeak-ng then waited forever for
    // `mbrola` to exit on the next voice change: here the host's time limit would end that job.
    const say = (engine: EngineId, voice: string) => host.synthesize(engine, { text: 'Hello there, how are you.', voice }, { timeoutMs: 20_000 });
    const voices: [EngineId, string][] = [
      ['espeak', 'espeak:mb-us3'],
      ['festival', 'festival:kal_diphone'],
      ['espeak', 'espeak:mb-us1'],
      ['festival', 'festival:kal_diphone'],
      ['espeak', 'espeak:mb-us3'],
    ];
    for (const [engine, voice] of voices) {
      assert.ok((await say(engine, voice)).pcm.samples.length > 0, voice);
    }
  });

  test('a native crash fails that job with engine_crashed and the next job succeeds', async () => {
    assert.equal(await failureCode(host.fault('crash')), 'engine_crashed');
    assert.ok((await speak(host)).pcm.samples.length > 0);
    assert.ok(host.status().restarts >= 1);
  });

  test('a hang past the timeout fails with engine_timeout and the next job succeeds', async () => {
    assert.equal(await failureCode(host.fault('hang', { timeoutMs: 1_000 })), 'engine_timeout');
    assert.ok((await speak(host)).pcm.samples.length > 0);
  });

  test('runaway memory fails with engine_out_of_memory and the next job succeeds', async () => {
    assert.equal(await failureCode(host.fault('allocate', { timeoutMs: 60_000 })), 'engine_out_of_memory');
    assert.ok((await speak(host)).pcm.samples.length > 0);
  });

  test('cancelling a job stuck in native code ends it as cancelled; queued jobs behind it still run', async () => {
    const controller = new AbortController();
    const stuck = host.fault('hang', { signal: controller.signal, timeoutMs: 60_000 });
    const queued = speak(host);
    assert.equal(host.status().queued, 1);
    controller.abort();
    assert.equal(await failureCode(stuck), 'cancelled');
    assert.ok((await queued).pcm.samples.length > 0);
  });

  test('a queued job can be cancelled before it starts', async () => {
    const running = speak(host);
    const controller = new AbortController();
    const queued = speak(host, { signal: controller.signal });
    controller.abort();
    assert.equal(await failureCode(queued), 'cancelled');
    await running;
  });

  test("a quick job's call goes ahead of the calls already waiting for the host", async () => {
    const finished: string[] = [];
    const call = (name: string, text: string, quick = false) =>
      host.synthesize('espeak', { text, voice: 'espeak:en-us' }, { quick }).then(() => void finished.push(name));
    const running = call('long', 'A sentence that keeps the engine busy for a while. '.repeat(60));
    const waiting = call('waiting', 'Hello there.');
    const quick = call('quick', 'Hello there.', true);
    await Promise.all([running, waiting, quick]);
    assert.deepEqual(finished, ['long', 'quick', 'waiting']);
  });

  test('a streamed synthesis crosses once: as its pieces, the result carrying only the timings', async () => {
    const pieces: number[] = [];
    const text = 'The first sentence is here. A second one follows it. And a third.';
    const result = await host.synthesize('espeak', { text, voice: 'espeak:en-us' }, { onAudio: (piece) => void pieces.push(piece.pcm.samples.length) });
    assert.ok(pieces.length >= 3 && pieces.every((samples) => samples > 0), `${pieces.length} pieces`);
    assert.equal(result.pcm.samples.length, 0);
    assert.equal(result.pcm.sampleRate, 22050);
    assert.ok((result.words?.length ?? 0) >= 12, 'the words of all the pieces');
  });

  test('an unknown engine is a clear error, not a crash', async () => {
    // @ts-expect-error: an id the type rules out, as a server of another build could still send one
    assert.equal(await failureCode(host.listVoices('no-such-engine')), 'engine_not_found');
  });
});

describe('engine host calls sharing one signal', () => {
  test('leave no abort listener behind once they finish', async () => {
    const host = new EngineHost(hostOptions('/nonexistent'));
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = (...args: Parameters<typeof add>) => (listeners++, add(...args));
    controller.signal.removeEventListener = (...args: Parameters<typeof remove>) => (listeners--, remove(...args));
    try {
      for (let call = 0; call < 3; call++) await speak(host, { signal: controller.signal });
      assert.equal(listeners, 0);
    } finally {
      await host.close();
    }
  });
});
