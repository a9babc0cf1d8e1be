import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyHistory, HISTORY_STEPS, recorded, redone, undone, type History } from '../../../../../studio/src/screens/timeline/history.js';

/** Edits a counter from 0 to `count`, recording each step as the screen does. */
function edited(count: number): { history: History<number>; present: number } {
  let history = emptyHistory<number>();
  for (let value = 1; value <= count; value++) history = recorded(history, value - 1);
  return { history, present: count };
}

describe('timeline undo history', () => {
  test('undo goes back through the edits in reverse, redo forward again, each ending when there is nothing left', () => {
    let { history, present } = edited(3);
    const seen: number[] = [];
    for (let step = undone(history, present); step; step = undone(history, present)) {
      ({ history } = step);
      present = step.state;
      seen.push(present);
    }
    assert.deepEqual(seen, [2, 1, 0]);
    for (let step = redone(history, present); step; step = redone(history, present)) {
      ({ history } = step);
      present = step.state;
      seen.push(present);
    }
    assert.deepEqual(seen, [2, 1, 0, 1, 2, 3]);
  });

  test('a new edit after an undo drops what redo could have brought back', () => {
    const { history, present } = edited(2);
    const back = undone(history, present);
    assert.ok(back);
    const after = recorded(back.history, back.state);
    assert.equal(redone(after, 7), undefined);
    assert.equal(undone(after, 7)?.state, 1);
  });

  test(`keeps the last ${HISTORY_STEPS} steps (at least 50), forgetting the oldest`, () => {
    assert.ok(HISTORY_STEPS >= 50);
    let { history, present } = edited(HISTORY_STEPS + 20);
    let steps = 0;
    for (let step = undone(history, present); step; step = undone(history, present)) {
      ({ history } = step);
      present = step.state;
      steps++;
    }
    assert.equal(steps, HISTORY_STEPS);
    assert.equal(present, 20, 'the oldest reachable state is the one before the last steps');
  });

  test('edits of one group in a row are one step; another group or an undo in between starts a new one', () => {
    let history = emptyHistory<string>();
    history = recorded(history, 'a', 'move chunk-0');
    history = recorded(history, 'a+1', 'move chunk-0');
    history = recorded(history, 'a+2', 'move chunk-0');
    history = recorded(history, 'a+3', 'move chunk-1');
    assert.deepEqual(
      history.undo.map((step) => step.state),
      ['a', 'a+3'],
    );
    const back = undone(history, 'a+4');
    assert.ok(back);
    const again = recorded(back.history, 'a+3', 'move chunk-1');
    assert.equal(again.undo.length, 2, 'after an undo the same group is a new step');
    assert.deepEqual(undone(history, 'a+4')?.state, 'a+3');
  });
});
