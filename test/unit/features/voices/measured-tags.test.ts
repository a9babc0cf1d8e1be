import assert from 'node:assert/strict';
import { test } from 'node:test';
import { libraryTags } from '../../../../src/features/voices/library-tags.js';
import { BRIGHT_CENTROID_HZ, brightnessTag, pitchTag, WARM_CENTROID_HZ } from '../../../../src/features/voices/measured-tags.js';

test('pitch is deep or high-pitched against the published adult range of the voice’s stated gender', () => {
  assert.equal(pitchTag(80, 'male'), 'deep');
  assert.equal(pitchTag(120, 'male'), undefined);
  assert.equal(pitchTag(170, 'male'), 'high-pitched');
  assert.equal(pitchTag(150, 'female'), 'deep');
  assert.equal(pitchTag(210, 'female'), undefined);
  assert.equal(pitchTag(280, 'female'), 'high-pitched');
});

test('with no stated gender only a pitch outside both ranges is tagged, and an unmeasured pitch never is', () => {
  assert.equal(pitchTag(80, null), 'deep');
  assert.equal(pitchTag(150, null), undefined);
  assert.equal(pitchTag(240, null), undefined);
  assert.equal(pitchTag(270, null), 'high-pitched');
  assert.equal(pitchTag(null, 'male'), undefined);
});

test('a low spectral centroid is warm, a high one bright, the middle neither', () => {
  assert.equal(brightnessTag(WARM_CENTROID_HZ - 1), 'warm');
  assert.equal(brightnessTag((WARM_CENTROID_HZ + BRIGHT_CENTROID_HZ) / 2), undefined);
  assert.equal(brightnessTag(BRIGHT_CENTROID_HZ + 1), 'bright');
  assert.equal(brightnessTag(null), undefined);
});

test('the measured tags follow the library’s other tags, and a voice without measures has none', () => {
  const voice = { type: 'preset', engine: 'pico', language: 'en-US', gender: 'female', settings: {} } as const;
  assert.deepEqual(libraryTags({ ...voice, medianF0Hz: null, centroidHz: null }), ['classic', 'american', 'female']);
  assert.deepEqual(libraryTags({ ...voice, medianF0Hz: 300, centroidHz: BRIGHT_CENTROID_HZ + 100 }), [
    'classic',
    'american',
    'female',
    'high-pitched',
    'bright',
  ]);
  assert.deepEqual(libraryTags({ ...voice, medianF0Hz: 200, centroidHz: WARM_CENTROID_HZ - 100 }), ['classic', 'american', 'female', 'warm']);
});
