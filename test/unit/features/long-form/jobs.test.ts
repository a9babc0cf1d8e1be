import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { selected, type LongFormService } from '../../../../src/features/long-form/index.js';
import type { CallOptions, EngineCall, EngineMethod, EngineResult } from '../../../../src/platform/engines/host/calls.js';
import { EngineError } from '../../../../src/platform/errors.js';
import type { JobQueue } from '../../../../src/platform/jobs/queue.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormService } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const VOICE = PICO_EN_US;

/** Engines whose host crashes under the syntheses of the texts in `crashes`, once per entry. */
class CrashingEngines extends FakeEngines {
  readonly crashes: string[] = [];

  override run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    const request: EngineCall = call;
    const crash = request.method === 'synthesize' ? this.crashes.indexOf(request.args[0].text) : -1;
    if (crash < 0) return super.run<M>(engine, call, options);
    this.crashes.splice(crash, 1);
    this.calls.push({ engine, call });
    return Promise.reject(new EngineError('engine_crashed', 'The engine host stopped (SIGKILL) while running this job'));
  }
}

describe('long-form chunks whose engine host crashed', () => {
  let fixture: ServiceFixture;
  let queue: JobQueue;
  let engines: CrashingEngines;
  let longForm: LongFormService;

  before(async () => {
    fixture = await serviceFixture();
    queue = fixture.queue;
    engines = new CrashingEngines(0.2);
    longForm = longFormService(fixture, engines, { maxAudioSeconds: 600 });
  });

  after(() => fixture.close());

  const speak = async (text: string) => {
    const started = await longForm.start([{ voice: VOICE, text, language: 'en-US' }], {}, 'key_a');
    const job = await queue.wait(started.job.id);
    return { job, chunks: longForm.chunksOf(fixture.taskService.owned(started.task.id, 'key_a')) };
  };

  test('a chunk is spoken again once after a crash, and the task completes', async () => {
    engines.crashes.push('Two crashes the host.');
    const { job, chunks } = await speak('One is fine. Two crashes the host. Three is fine.');
    assert.equal(job.state, 'completed', JSON.stringify(job.error));
    assert.ok(chunks.every((chunk) => selected(chunk).state === 'completed' && chunk.selectedTake === 1));
    assert.equal(engines.synthesized.filter((request) => request.text === 'Two crashes the host.').length, 2);
  });

  test('a chunk that crashes the host twice fails, naming the crash; the others are spoken', async () => {
    engines.crashes.push('Two crashes twice.', 'Two crashes twice.');
    const { job, chunks } = await speak('One is fine. Two crashes twice. Three is fine.');
    assert.equal(job.state, 'failed');
    assert.deepEqual(job.error?.details, { chunks: [1] });
    assert.deepEqual(
      chunks.map((chunk) => [selected(chunk).state, selected(chunk).error?.code ?? null]),
      [
        ['completed', null],
        ['failed', 'engine_crashed'],
        ['completed', null],
      ],
    );
  });
});
