import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SlidingWindowLimiter } from '../../../../src/features/access/sliding-window.js';

const MINUTE = 60_000;

describe('sliding-window rate limits', () => {
  test('at most the limit passes in any 60-second span, also across the edge a fixed window would have', () => {
    const limiter = new SlidingWindowLimiter(MINUTE);
    const budget = [{ id: 'key:scope', limit: 60 }];
    let passed = 0;
    // 60 requests in the last second of one minute, 60 more in the first second of the next.
    for (let i = 0; i < 60; i++) passed += limiter.take(budget, 59_000 + i * 10).allowed ? 1 : 0;
    for (let i = 0; i < 60; i++) passed += limiter.take(budget, 60_100 + i * 10).allowed ? 1 : 0;
    assert.equal(passed, 60);
    assert.equal(limiter.take(budget, 59_000 + MINUTE).allowed, true, 'a slot frees when the first request leaves the window');
    assert.equal(limiter.take(budget, 59_000 + MINUTE).allowed, false);
  });

  test('headers: remaining counts down, reset is when the oldest counted request leaves the window', () => {
    const limiter = new SlidingWindowLimiter(MINUTE);
    const budget = [{ id: 'b', limit: 3 }];
    assert.deepEqual(limiter.take(budget, 0), { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    assert.deepEqual(limiter.take(budget, 20_000), { allowed: true, limit: 3, remaining: 1, resetSeconds: 40 });
    assert.deepEqual(limiter.take(budget, 30_000), { allowed: true, limit: 3, remaining: 0, resetSeconds: 30 });
    assert.deepEqual(limiter.take(budget, 45_500), { allowed: false, limit: 3, remaining: 0, resetSeconds: 15 });
    assert.equal(limiter.take(budget, 60_001).allowed, true);
  });

  test('a request drawing on several budgets passes only when all have room and counts in all of them', () => {
    const limiter = new SlidingWindowLimiter(MINUTE);
    const parent = { id: 'parent', limit: 3 };
    const child = (id: string) => [{ id, limit: 3 }, parent];
    assert.equal(limiter.take(child('a'), 0).allowed, true);
    assert.equal(limiter.take(child('b'), 1).allowed, true);
    const last = limiter.take(child('c'), 2);
    assert.deepEqual(last, { allowed: true, limit: 3, remaining: 0, resetSeconds: 60 }, 'the parent binds');
    assert.equal(limiter.take(child('d'), 3).allowed, false);
    assert.equal(limiter.take([parent], 4).allowed, false);
    assert.equal(limiter.take(child('a'), 3).remaining, 0, 'a refused request counts nowhere');
  });

  test('a lowered limit refuses until enough requests have left the window', () => {
    const limiter = new SlidingWindowLimiter(MINUTE);
    for (let i = 0; i < 5; i++) limiter.take([{ id: 'k', limit: 5 }], i * 1000);
    const refused = limiter.take([{ id: 'k', limit: 2 }], 10_000);
    assert.equal(refused.allowed, false);
    assert.equal(refused.resetSeconds, 53, 'the fourth oldest (at 3 s) must leave: 63 s − 10 s');
  });
});
