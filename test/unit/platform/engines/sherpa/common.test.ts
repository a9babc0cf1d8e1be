import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GENERATION_BYTES, generationTexts } from '../../../../../src/platform/engines/sherpa/common.js';

test('a text reaches sherpa in generations of whole sentences of at most GENERATION_BYTES', () => {
  const prose = 'The cat sat on the mat. '.repeat(300);
  const texts = generationTexts(prose);
  assert.ok(texts.length > 1 && texts.length <= Math.ceil(Buffer.byteLength(prose) / (GENERATION_BYTES - 30)), `${texts.length} generations`);
  assert.equal(texts.join(''), prose);
  for (const text of texts) {
    assert.ok(Buffer.byteLength(text) <= GENERATION_BYTES);
    assert.match(text, /^The cat .*mat\. $/);
  }
  // Kokoro crashed the process on 50 KB of one word given at once.
  for (const text of generationTexts('a'.repeat(50_000))) assert.ok(Buffer.byteLength(text) <= GENERATION_BYTES);
  assert.deepEqual(generationTexts('Hello there. How are you?'), ['Hello there. How are you?']);
});

test('chains of dotted letters are broken for the eSpeak NG inside sherpa, and text without letters gives no generation', () => {
  const [chained] = generationTexts('e.g. '.repeat(50));
  assert.deepEqual(
    chained!.split(' - ').map((part) => part.match(/\p{L}/gu)?.length ?? 0),
    [20, 20, 20, 20, 20],
  );
  assert.deepEqual(generationTexts('!!! ... ???'), []);
});
