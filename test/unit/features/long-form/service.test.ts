import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { selected, type LongFormService } from '../../../../src/features/long-form/index.js';
import { TaskService } from '../../../../src/features/tasks/index.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { JobQueue } from '../../../../src/platform/jobs/queue.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormService } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const VOICE = PICO_EN_US;
const TEXT = 'The first sentence is here. The second one follows it. And a third closes the text.';

describe('the long-form service', () => {
  let fixture: ServiceFixture;
  let queue: JobQueue;
  let engines: FakeEngines;
  let tasks: TaskService;
  let longForm: LongFormService;

  before(async () => {
    fixture = await serviceFixture();
    ({ queue, taskService: tasks } = fixture);
    engines = new FakeEngines(0.4);
    longForm = longFormService(fixture, engines);
  });

  after(() => fixture.close());

  test('a text is spoken sentence by sentence; one chunk is regenerated and chosen; the merge joins them with pauses', async () => {
    const started = await longForm.start([{ voice: VOICE, text: TEXT, language: 'en-US' }], { seed: 7 }, 'key_a');
    assert.deepEqual(
      started.chunks.map((chunk) => selected(chunk).text),
      ['The first sentence is here.', 'The second one follows it.', 'And a third closes the text.'],
    );
    assert.equal((await queue.wait(started.job.id)).state, 'completed');
    const task = tasks.owned(started.task.id, 'key_a');
    assert.ok(longForm.chunksOf(task).every((chunk) => selected(chunk).state === 'completed' && selected(chunk).take === 1));
    assert.equal(engines.synthesized.length, 3);

    const { take, job } = await longForm.regenerate(task.id, 1, { text: 'The second one, said again.' }, { keyId: 'key_a', task });
    assert.equal(take.take, 2);
    await queue.wait(job.id);
    const chunks = longForm.chunksOf(task);
    assert.deepEqual(
      chunks.map((chunk) => chunk.selectedTake),
      [1, 2, 1],
      'the new take is chosen; the others keep theirs',
    );
    assert.equal(selected(chunks[1]!).text, 'The second one, said again.');
    assert.equal(longForm.selectTake(task, 1, 1).selectedTake, 1, 'the first take can be chosen back');
    assert.throws(
      () => longForm.selectTake(task, 1, 3),
      (error: unknown) => error instanceof ApiError && error.code === 'take_not_found',
    );

    const merged = await longForm.merge(tasks.owned(task.id, 'key_a'), { format: 'wav', pauseMs: 250, normalize: false }, 'key_a');
    const pcm = parseWav(merged.audio);
    const seconds = pcm.samples.length / pcm.sampleRate;
    assert.ok(Math.abs(seconds - (3 * 0.4 + 2 * 0.25)) < 0.05, `merged ${seconds.toFixed(3)} s: three chunks and two pauses`);
    assert.equal(tasks.owned(task.id, 'key_a').status, 'completed');
  });

  test("a task's chunks show in what the tasks capability presents", async () => {
    const started = await longForm.start([{ voice: VOICE, text: 'One. Two.', language: 'en-US' }], {}, 'key_a');
    await queue.wait(started.job.id);
    const shown = tasks.present(tasks.owned(started.task.id, 'key_a'));
    assert.ok(Array.isArray(shown.chunks) && shown.chunks.length === 2);
  });
});
