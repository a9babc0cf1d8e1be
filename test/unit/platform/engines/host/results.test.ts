import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isResultOf } from '../../../../../src/platform/engines/host/results.js';

const pcm = { samples: new Float32Array(160), sampleRate: 16000 };

test("a host's answer passes only with the shape of the called method's result", () => {
  assert.equal(isResultOf('synthesize', { pcm }), true);
  assert.equal(isResultOf('synthesize', { pcm: { samples: [0, 0], sampleRate: 16000 } }), false, 'samples must be a Float32Array');
  assert.equal(isResultOf('synthesize', pcm), false, 'a bare PCM is not a synthesis result');
  assert.equal(isResultOf('voiceVector', new Float32Array(256)), true);
  assert.equal(isResultOf('voiceVector', [0.1, 0.2]), false);
  assert.equal(isResultOf('similarity', 0.8), true);
  assert.equal(isResultOf('similarity', '0.8'), false);
  assert.equal(isResultOf('detect', [{ start: 0, end: 1.5 }]), true);
  assert.equal(isResultOf('detect', [{ start: 0 }]), false);
  assert.equal(isResultOf('recognize', { text: 'hello', language: 'en', duration: 1, segments: [] }), true);
  assert.equal(isResultOf('recognize', { segments: [] }), false);
  const heard = (probability: unknown) => ({
    text: 'hi',
    language: 'en',
    duration: 1,
    segments: [{ start: 0, end: 1, text: 'hi', words: [{ word: 'hi', start: 0, end: 1, probability }] }],
  });
  assert.equal(isResultOf('recognize', heard(0.42)), true);
  assert.equal(isResultOf('recognize', heard(null)), true, 'a recognizer may give no probability');
  assert.equal(isResultOf('recognize', heard(1.5)), false, 'a probability is within 0–1');
  assert.equal(isResultOf('recognize', heard(undefined)), false, 'a word says how sure the recognizer was, or null');
  assert.equal(isResultOf('extract', { method: 'acoustic', vector: new Float32Array(4) }), true);
  assert.equal(isResultOf('listVoices', [{ id: 'pico:en-US' }]), true);
  assert.equal(isResultOf('listVoices', [{ name: 'no id' }]), false);
  assert.equal(isResultOf('capabilities', null), false);
});
