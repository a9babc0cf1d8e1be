import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeperThan } from '../../../../src/platform/http/json-body.js';

test('nesting is counted over arrays and objects alike, up to and past the limit', () => {
  assert.equal(nestsDeeperThan('[[[]]]', 3), false);
  assert.equal(nestsDeeperThan('[[[[]]]]', 3), true);
  assert.equal(nestsDeeperThan('{"a":[{"b":1}]}', 3), false);
  assert.equal(nestsDeeperThan('{"a":[{"b":[]}]}', 3), true);
  assert.equal(nestsDeeperThan('[[],[],[],[]]', 2), false, 'siblings do not add up');
  assert.equal(nestsDeeperThan(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, 64), true);
});

test('brackets inside strings, escaped quotes included, are not nesting', () => {
  assert.equal(nestsDeeperThan(JSON.stringify({ text: '[[[[{{{{' }), 1), false);
  assert.equal(nestsDeeperThan(JSON.stringify({ text: 'say \\"[[[[\\" and "{{{{"' }), 1), false);
  assert.equal(nestsDeeperThan(JSON.stringify(['\\', [[]]]), 2), true, 'a string ending in a backslash ends there');
});
