import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { checkTextLength } from '../../../../src/platform/text/limits.js';

test('text within the limit passes', () => {
  assert.doesNotThrow(() => checkTextLength('Hello.', 6));
  assert.doesNotThrow(() => checkTextLength('a', 1));
});

test('text over the limit is 413 text_too_long with its length and the limit', () => {
  assert.throws(
    () => checkTextLength('Hello, world', 5),
    (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.statusCode, 413);
      assert.equal(error.code, 'text_too_long');
      assert.deepEqual(error.details, { length: 12, max_chars: 5 });
      return true;
    },
  );
});

test('characters are code points: an emoji counts once', () => {
  assert.doesNotThrow(() => checkTextLength('\u{1F600}\u{1F600}', 2));
  assert.throws(() => checkTextLength('\u{1F600}\u{1F600}\u{1F600}', 2), { code: 'text_too_long', details: { length: 3, max_chars: 2 } });
});

test('empty, whitespace-only and invisible-only text is 400 text_empty', () => {
  for (const text of ['', '   ', '\n\t', '\u00A0\u3000', '\u200B\uFEFF ']) {
    assert.throws(
      () => checkTextLength(text, 100),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.statusCode, 400);
        assert.equal(error.code, 'text_empty');
        return true;
      },
      JSON.stringify(text),
    );
  }
});

test('emptiness is reported before length, so an empty text never reads as too long', () => {
  assert.throws(() => checkTextLength(' '.repeat(50), 10), { code: 'text_empty' });
});
