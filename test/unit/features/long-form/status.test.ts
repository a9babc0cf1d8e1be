import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { longFormOutcome } from '../../../../src/features/long-form/status.js';
import type { ChunkRecord, TakeState } from '../../../../src/features/long-form/chunk-repository.js';

function chunk(index: number, ...states: TakeState[]): ChunkRecord {
  const takes = states.map((state, at) => ({
    taskId: 'task_1',
    index,
    take: at + 1,
    text: 'x',
    voiceId: 'pico:en-US',
    language: 'en-US',
    route: 'voice',
    seed: 1,
    state,
    duration: null,
    audioPath: null,
    error: null,
    createdAt: '2024-01-01T00:00:00.000Z',
  }));
  return { taskId: 'task_1', index, segment: 0, start: 0, end: 1, paragraphEnd: false, speaker: null, selectedTake: takes.length, takes };
}

describe('a long-form task status', () => {
  test('is running or queued while any speaking job is, whatever its chunks say', () => {
    assert.equal(longFormOutcome(['queued', 'running'], [chunk(0, 'completed')]).status, 'running');
    assert.equal(longFormOutcome(['queued'], [chunk(0, 'completed'), chunk(1, 'completed', 'pending')]).status, 'queued');
  });

  test('is completed only when every selected take is', () => {
    assert.deepEqual(longFormOutcome([], [chunk(0, 'completed'), chunk(1, 'failed', 'completed')]), { status: 'completed', error: null });
  });

  test('fails naming the chunks whose selected take failed, even when an earlier take of them worked', () => {
    const outcome = longFormOutcome([], [chunk(0, 'completed', 'failed'), chunk(1, 'cancelled'), chunk(2, 'failed')]);
    assert.equal(outcome.status, 'failed');
    assert.deepEqual(outcome.error?.details, { chunks: [0, 2] });
  });

  test('is cancelled when chunks were left by a cancelled run and none failed', () => {
    assert.equal(longFormOutcome([], [chunk(0, 'completed'), chunk(1, 'cancelled')]).status, 'cancelled');
  });
});
