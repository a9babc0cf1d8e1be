import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instructionsHeader, readInstructions } from '../../../../src/features/openai/instructions.js';

describe('OpenAI instructions', () => {
  test('pitch and pace become factors; what cannot be honoured is listed as ignored', () => {
    const effect = readInstructions('Speak slowly in a deep, calm male voice.', true);
    assert.ok(effect.pitch! < 1, `pitch ${effect.pitch}`);
    assert.ok(effect.speedFactor < 1, `speed factor ${effect.speedFactor}`);
    assert.deepEqual(effect.applied, ['pitch', 'pace']);
    assert.deepEqual(effect.ignored.sort(), ['energy', 'gender']);
    assert.equal(instructionsHeader(effect), 'applied=pitch,pace; ignored=energy,gender');
  });

  test('a high pitch and a fast pace raise both', () => {
    const effect = readInstructions('very high and fast', true);
    assert.ok(effect.pitch! > 1 && effect.speedFactor > 1, JSON.stringify(effect));
  });

  test('pitch is ignored, not applied, when the engine cannot shift it', () => {
    const effect = readInstructions('a low voice, slow', false);
    assert.equal(effect.pitch, undefined);
    assert.deepEqual(effect.applied, ['pace']);
    assert.deepEqual(effect.ignored, ['pitch']);
  });

  test('words outside the vocabulary are ignored and named, percent-encoded in the header', () => {
    const effect = readInstructions('Whisper like a pirate, très drôle', true);
    assert.deepEqual(effect.applied, []);
    assert.equal(effect.speedFactor, 1);
    assert.ok(effect.ignored.includes('pirate') && effect.ignored.includes('drôle'), effect.ignored.join(','));
    const header = instructionsHeader(effect);
    assert.match(header, /^applied=; ignored=/);
    assert.match(header, /dr%C3%B4le/);
    assert.match(header, /^[\x20-\x7e]+$/);
  });
});
