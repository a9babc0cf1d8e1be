import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { selected } from '../../../../src/features/long-form/index.js';
import type { CallOptions, EngineCall, EngineMethod, EngineResult } from '../../../../src/platform/engines/host/calls.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormService } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const TWELVE = Array.from({ length: 12 }, (_, index) => `Sentence ${index + 1} is here.`).join(' ');

/** Engines with `slots` free across workers; each synthesis takes a moment, so calls overlap when they may. */
class SlottedEngines extends FakeEngines {
  running = 0;
  mostAtOnce = 0;

  constructor(private readonly slots: number) {
    super(0.2);
  }

  override parallelCalls(): number {
    return this.slots;
  }

  override async run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
    try {
      await sleep(20);
      return await super.run<M>(engine, call, options);
    } finally {
      this.running--;
    }
  }
}

describe('a long-form task over the engines’ free slots', () => {
  let fixture: ServiceFixture;
  // A service registers its job runners on the fixture's queue: one fixture per service.
  beforeEach(async () => {
    fixture = await serviceFixture();
  });
  afterEach(() => fixture.close());

  const speak = async (engines: SlottedEngines) => {
    const longForm = longFormService(fixture, engines, { maxAudioSeconds: 600 });
    const started = await longForm.start([{ voice: PICO_EN_US, text: TWELVE, language: 'en-US' }], {}, 'key_a');
    const job = await fixture.queue.wait(started.job.id);
    return { job, chunks: longForm.chunksOf(fixture.taskService.owned(started.task.id, 'key_a')) };
  };

  for (const [slots, expected] of [
    [1, 2],
    [4, 5],
  ] as const) {
    test(`with ${slots} slot(s), ${expected} chunks are with the engines at most, and each is spoken once`, async () => {
      const engines = new SlottedEngines(slots);
      const { job, chunks } = await speak(engines);
      assert.equal(job.state, 'completed', JSON.stringify(job.error));
      assert.equal(engines.mostAtOnce, expected, 'the free slots and one more, so none waits while a chunk is stored');
      assert.equal(engines.synthesized.length, 12);
      assert.deepEqual(
        chunks.map((chunk) => [selected(chunk).state, chunk.takes.length]),
        chunks.map(() => ['completed', 1]),
      );
      assert.equal(job.progress, 1);
    });
  }
});
