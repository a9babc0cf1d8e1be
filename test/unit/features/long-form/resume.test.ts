import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LongFormService, selected } from '../../../../src/features/long-form/index.js';
import type { TaskService } from '../../../../src/features/tasks/index.js';
import type { JobQueue } from '../../../../src/platform/jobs/queue.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';
import type { LongFormDeps } from '../../../../src/features/long-form/deps.js';
import { LONG_FORM_JOB } from '../../../../src/features/long-form/jobs.js';
import { LongFormResume } from '../../../../src/features/long-form/resume.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormDeps } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const VOICE = PICO_EN_US;
const TEXT = 'The first sentence is here. The second one follows it. And a third closes the text.';

/** Audio files of chunks other than the first find the disk full while `full` is set. */
class FillingAudio extends AudioStore {
  full = false;

  override async writeWith(stored: string, make: (tempPath: string) => Promise<unknown>): Promise<void> {
    if (this.full && !stored.includes('_0_')) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return super.writeWith(stored, make);
  }
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('long-form tasks whose chunks failed for lack of space', () => {
  let fixture: ServiceFixture;
  let queue: JobQueue;
  let tasks: TaskService;
  let engines: FakeEngines;
  let audio: FillingAudio;
  let kept: KeptWrites;
  let room: boolean;
  let longForm: LongFormService;
  let deps: LongFormDeps;

  before(async () => {
    fixture = await serviceFixture();
    ({ queue, taskService: tasks } = fixture);
    engines = new FakeEngines(0.2);
    audio = new FillingAudio(fixture.dir);
    room = false;
    kept = new KeptWrites(fixture.log, { retryMs: 20, hasRoom: async () => room });
    deps = longFormDeps(fixture, engines, { audio, kept, maxAudioSeconds: 600 });
    longForm = new LongFormService(deps);
  });

  after(async () => {
    kept.close();
    await fixture.close();
  });

  /** A task whose first chunk is spoken and whose speaking then stops on a full disk. */
  async function failedForSpace(speed?: number) {
    audio.full = true;
    const started = await longForm.start([{ voice: VOICE, text: TEXT, language: 'en-US' }], { seed: 3, speed }, 'key_a');
    const stopped = await queue.wait(started.job.id);
    assert.equal(stopped.error?.code, 'insufficient_storage');
    const task = await until('the task to fail', () => {
      const current = tasks.owned(started.task.id, 'key_a');
      return current.status === 'failed' ? current : undefined;
    });
    assert.deepEqual(
      longForm.chunksOf(task).map((chunk) => selected(chunk).state),
      ['completed', 'failed', 'failed'],
    );
    audio.full = false;
    return task;
  }

  test('once the disk has room again the task resumes by itself, speaking only its failed chunks', async () => {
    const task = await failedForSpace(1.25);
    const spokenBefore = engines.synthesized.length;
    await sleep(100);
    assert.equal(tasks.owned(task.id, 'key_a').status, 'failed', 'nothing resumes while the disk is full');
    room = true;
    await until('the task to complete', () => (tasks.owned(task.id, 'key_a').status === 'completed' ? true : undefined));
    const resumed = engines.synthesized.slice(spokenBefore);
    // The next chunk is already with the engine while one is stored, so the two may arrive in either order.
    assert.deepEqual(
      resumed.map((request) => request.text).sort(),
      ['And a third closes the text.', 'The second one follows it.'],
      'the first chunk keeps its audio',
    );
    assert.ok(
      resumed.every((request) => request.speed === 1.25),
      'the resume speaks at the task’s speed',
    );
    assert.ok(longForm.chunksOf(task).every((chunk) => selected(chunk).state === 'completed' && chunk.selectedTake === 1));
    room = false;
  });

  test('regenerating a chunk of a failed task speaks its other failed chunks again too', async () => {
    const task = await failedForSpace();
    const spokenBefore = engines.synthesized.length;
    const { job } = await longForm.regenerate(task.id, 1, { text: 'The second one, said again.' }, { keyId: 'key_a', task });
    await queue.wait(job.id);
    await until('the task to complete', () => (tasks.owned(task.id, 'key_a').status === 'completed' ? true : undefined));
    assert.deepEqual(
      engines.synthesized
        .slice(spokenBefore)
        .map((request) => request.text)
        .sort(),
      ['And a third closes the text.', 'The second one, said again.'],
    );
    assert.deepEqual(
      longForm.chunksOf(task).map((chunk) => chunk.selectedTake),
      [1, 2, 1],
    );
  });

  test('after a restart a task that failed for lack of space waits for room and resumes', async () => {
    const task = await failedForSpace();
    // What a restarted service has: the failures on the chunks, and nothing waiting in memory.
    const afterRestart = new KeptWrites(fixture.log, { retryMs: 20, hasRoom: async () => true });
    new LongFormResume({ ...deps, kept: afterRestart }, [LONG_FORM_JOB.name]).recover();
    await until('the task to complete', () => (tasks.owned(task.id, 'key_a').status === 'completed' ? true : undefined));
    afterRestart.close();
  });
});
