import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planWindow } from '../../../../src/features/transcription/windows.js';

describe('planning a transcription window', () => {
  test('without a detector the whole window is heard and the next starts at its end', () => {
    assert.deepEqual(planWindow(undefined, 120, false), { speech: { start: 0, end: 120 }, advance: 120 });
  });

  test('speech is heard as one piece from the first word to the last, pauses included, with a little audio around it', () => {
    const plan = planWindow(
      [
        { start: 2, end: 5 },
        { start: 6, end: 9 },
      ],
      10,
      true,
    );
    assert.deepEqual(plan, { speech: { start: 1.7, end: 9.3 }, advance: 10 });
  });

  test('a window that goes on is cut in the middle of the longest pause of its second half', () => {
    const regions = [
      { start: 0, end: 50 },
      { start: 50.5, end: 80 },
      { start: 84, end: 100 },
      { start: 100.4, end: 120 },
    ];
    const plan = planWindow(regions, 120, false);
    assert.equal(plan.advance, 82);
    assert.deepEqual(plan.speech, { start: 0, end: 80.3 });
  });

  test('without a pause in its second half the window is cut at its end', () => {
    assert.equal(
      planWindow(
        [
          { start: 1, end: 30 },
          { start: 31, end: 120 },
        ],
        120,
        false,
      ).advance,
      120,
    );
  });

  test('a silent window is skipped', () => {
    assert.deepEqual(planWindow([], 120, false), { advance: 120 });
  });
});
