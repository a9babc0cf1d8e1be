import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { selected } from '../../../../src/features/long-form/index.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormService } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const VOICE = PICO_EN_US;
/** Four short sentences, one chunk each (max_chars 20), about a second of speech each, expected. */
const TEXT = 'Hi there. Good day. See you. Bye now.';

describe('the audio of a long-form task is bounded, per chunk and for the task', () => {
  let fixture: ServiceFixture | undefined;
  afterEach(() => fixture?.close());

  /** A service whose engine says `seconds` of audio for any text, its audio bounded at `maxAudioSeconds`. */
  async function service(seconds: number, maxAudioSeconds: number) {
    fixture = await serviceFixture();
    const longForm = longFormService(fixture, new FakeEngines(seconds), { maxAudioSeconds });
    return { longForm, queue: fixture.queue, start: () => longForm.start([{ voice: VOICE, text: TEXT, language: 'en-US' }], { maxChars: 20 }, 'key_a') };
  }

  test('a text expected to say more than the bound is refused before any task', async () => {
    const { start, queue } = await service(1, 2);
    await assert.rejects(start(), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.statusCode === 422 && error.code === 'audio_too_long', String(error));
      assert.ok(Number(error.details.estimated_seconds) > 2 && error.details.max_seconds === 2, JSON.stringify(error.details));
      return true;
    });
    assert.equal(queue.status().queued.length + queue.status().running.length, 0);
  });

  test('a chunk that makes more than the bound fails with audio_too_long', async () => {
    const { start, queue, longForm } = await service(12, 10);
    const { task, job } = await start();
    const done = await queue.wait(job.id);
    assert.equal(done.state, 'failed');
    assert.equal(done.error?.code, 'chunks_failed');
    const chunks = longForm.chunksOf(task);
    assert.deepEqual(
      chunks.map((chunk) => [selected(chunk).state, selected(chunk).error?.code]),
      chunks.map(() => ['failed', 'audio_too_long']),
    );
  });

  test('a task whose chunks together make more than the bound stops there with audio_too_long', async () => {
    const { start, queue, longForm } = await service(6, 10);
    const { task, job } = await start();
    const done = await queue.wait(job.id);
    assert.equal(done.state, 'failed');
    assert.equal(done.error?.code, 'audio_too_long');
    // Past 10 s with the second chunk; the third was already with the engine, the fourth is never spoken.
    assert.deepEqual(
      longForm.chunksOf(task).map((chunk) => [selected(chunk).state, selected(chunk).error?.code ?? null]),
      [
        ['completed', null],
        ['completed', null],
        ['completed', null],
        ['failed', 'audio_too_long'],
      ],
    );
  });
});
