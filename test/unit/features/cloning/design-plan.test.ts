import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseBaseVoice, designAttributes, designTargets } from '../../../../src/features/cloning/design-plan.js';
import type { SpeakingVoice } from '../../../../src/platform/speech/speech.js';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import { engineOf } from '../../../helpers/engine-ids.js';

const voice = (id: string, language: string, gender: 'female' | 'male'): SpeakingVoice => ({
  id,
  type: 'preset',
  engine: engineOf(id),
  engineVoice: id,
  language,
  languages: [language],
  gender,
  available: true,
  settings: {},
});
const VOICES = [
  voice('flite:slt', 'en-US', 'female'),
  voice('flite:kal16', 'en-US', 'male'),
  voice('flite:awb', 'en-GB', 'male'),
  voice('pico:en-GB', 'en-GB', 'female'),
  voice('festival:kal_diphone', 'en-US', 'male'),
];
const ORDER: EngineId[] = ['flite', 'pico', 'festival'];

test('described attributes become targets in the described directions', () => {
  const deep = designTargets(designAttributes({ description: 'a calm, deep male voice, slow', language: 'en' }).attributes, undefined);
  const bright = designTargets(designAttributes({ description: 'a bright young female voice, fast', language: 'en' }).attributes, undefined);
  assert.ok(deep.f0Hz < 115 && bright.f0Hz > 205, `${deep.f0Hz} / ${bright.f0Hz}`);
  assert.ok(deep.tempo < 1 && bright.tempo > 1);
  assert.ok(bright.equalizer.some((band) => band.frequency > 3000 && band.gainDb > 0));
});

test('explicit fields override the description', () => {
  const { attributes } = designAttributes({ description: 'a deep male voice', language: 'en', gender: 'female', pitch: 2, pace: -2 });
  assert.equal(attributes.gender, 'female');
  assert.equal(attributes.pitch, 2);
  assert.equal(attributes.pace, -2);
});

test('the base voice matches region and gender; without a seed the choice is fixed', () => {
  const male = designAttributes({ description: 'a man', language: 'en' }).attributes;
  assert.equal(chooseBaseVoice(VOICES, male, 'en', ORDER, undefined)?.id, 'flite:kal16');
  const british = designAttributes({ description: 'a british woman', language: 'en' }).attributes;
  assert.equal(chooseBaseVoice(VOICES, british, 'en', ORDER, undefined)?.id, 'pico:en-GB');
  const scot = designAttributes({ description: 'a british man', language: 'en' }).attributes;
  assert.equal(chooseBaseVoice(VOICES, scot, 'en', ORDER, undefined)?.id, 'flite:awb');
  assert.equal(chooseBaseVoice(VOICES, male, 'de', ORDER, undefined), undefined);
});

test('the same seed gives the same variation; no seed gives none', () => {
  const { attributes } = designAttributes({ description: 'a calm voice', language: 'en' });
  assert.deepEqual(designTargets(attributes, 5), designTargets(attributes, 5));
  assert.notDeepEqual(designTargets(attributes, 5), designTargets(attributes, 6));
  assert.deepEqual(designTargets(attributes, undefined), designTargets(attributes, undefined));
});
