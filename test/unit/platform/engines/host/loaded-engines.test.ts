import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoadedEngines } from '../../../../../src/platform/engines/host/loaded-engines.js';
import type { EngineDescriptor, VoiceActivityDetector } from '../../../../../src/platform/engines/types.js';

/** A descriptor that counts how often it is loaded and disposed. */
function countingDescriptor(available = true) {
  const counts = { loads: 0, disposals: 0 };
  const descriptor: EngineDescriptor<VoiceActivityDetector> = {
    id: 'silero-vad',
    kind: 'vad',
    neural: false,
    probe: async () => (available ? { available } : { available, reason: 'files missing', code: 'model_invalid' }),
    load: async () => {
      counts.loads++;
      await sleep(20);
      return {
        capabilities: {
          engine: 'silero-vad',
          kind: 'vad',
          neural: false,
          languages: [],
          wordTimings: false,
          phonemeTimings: false,
          referenceAudio: false,
          blendableVoices: false,
          speed: false,
        },
        detect: async () => [],
        dispose: async () => {
          counts.disposals++;
        },
      };
    },
  };
  return { descriptor, counts };
}

test('an engine loads once even when jobs ask for it at the same time, and is reused', async () => {
  const { descriptor, counts } = countingDescriptor();
  const engines = new LoadedEngines(new Map([['silero-vad', descriptor]]), 60_000);
  await Promise.all([1, 2, 3].map(() => engines.with('silero-vad', async () => undefined)));
  await engines.with('silero-vad', async () => undefined);
  assert.equal(counts.loads, 1);
  assert.deepEqual(engines.loaded(), ['silero-vad']);
});

test('an idle engine is disposed and loads again on the next job', async () => {
  const { descriptor, counts } = countingDescriptor();
  const engines = new LoadedEngines(new Map([['silero-vad', descriptor]]), 1_000);
  await engines.with('silero-vad', async () => undefined);
  while (counts.disposals === 0) await sleep(100);
  assert.deepEqual(engines.loaded(), []);
  await engines.with('silero-vad', async () => undefined);
  assert.equal(counts.loads, 2);
});

test('an engine whose probe fails reports the probe’s code and is not kept', async () => {
  const { descriptor, counts } = countingDescriptor(false);
  const engines = new LoadedEngines(new Map([['silero-vad', descriptor]]), 60_000);
  await assert.rejects(
    engines.with('silero-vad', async () => undefined),
    { code: 'model_invalid' },
  );
  assert.equal(counts.loads, 0);
  assert.deepEqual(engines.loaded(), []);
});
