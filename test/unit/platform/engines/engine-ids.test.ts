import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENGINE_IDS, isEngineId, isNeuralEngineId } from '../../../../src/platform/engines/engine-ids.js';
import { engineDescriptors } from '../../../../src/platform/engines/registry.js';

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
