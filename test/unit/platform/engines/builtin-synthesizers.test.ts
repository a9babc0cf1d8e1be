import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SYNTHESIZER_IDS } from '../../../../src/platform/engines/builtin-synthesizers.js';
import { BUILTIN_ENGINES } from '../../../../src/platform/engines/registry.js';

test('the settings name exactly the built-in synthesizers the registry runs', () => {
  const registered = BUILTIN_ENGINES.filter((engine) => engine.kind === 'synthesizer').map((engine) => engine.id);
  assert.deepEqual([...BUILTIN_SYNTHESIZER_IDS].sort(), registered.sort());
});
