import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SYNTHESIZER_IDS, ENGINE_IDS, isEngineId, isNeuralEngineId } from '../../../../src/platform/engines/engine-ids.js';
import { BUILTIN_ENGINES, engineDescriptors } from '../../../../src/platform/engines/registry.js';

test('the registry has one engine for every engine id, and none other', () => {
  const listed = engineDescriptors('/nonexistent').map((descriptor) => descriptor.id);
  assert.deepEqual([...listed].sort(), [...ENGINE_IDS].sort());
});

test('an id from outside is an engine id only when this build knows it', () => {
  assert.ok(isEngineId('kokoro') && isEngineId('pico') && isEngineId('acoustic-check'));
  assert.ok(!isEngineId('Kokoro') && !isEngineId('no-such-engine') && !isEngineId(''));
  assert.ok(isNeuralEngineId('whisper'));
  assert.ok(!isNeuralEngineId('pocketsphinx'));
});

test('the built-in synthesizer ids (what clones may start from) are exactly the registry’s built-in synthesizers', () => {
  const registered = BUILTIN_ENGINES.filter((engine) => engine.kind === 'synthesizer').map((engine) => engine.id);
  assert.deepEqual([...BUILTIN_SYNTHESIZER_IDS].sort(), registered.sort());
});
