import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AssetRepository, AssetService } from '../../../../src/features/assets/index.js';
import { ChunkRepository } from '../../../../src/features/long-form/index.js';
import { type TaskRecord } from '../../../../src/features/tasks/index.js';
import { TimelineRepository, TimelineService } from '../../../../src/features/timeline/index.js';
import { MERGE_DEFAULTS } from '../../../../src/platform/audio/merge.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { longFormService } from '../../../helpers/long-form.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const VOICE = PICO_EN_US;
const CHUNK_SECONDS = 0.4;
const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 0.002, `${what}: ${actual} vs ${expected}`);

describe('the timeline service', () => {
  let fixture: ServiceFixture;
  let timeline: TimelineService;
  let task: TaskRecord;

  before(async () => {
    fixture = await serviceFixture();
    const { db, kept, log, dir, queue, audio, taskService } = fixture;
    const chunks = new ChunkRepository(db, kept);
    const longForm = longFormService(fixture, new FakeEngines(CHUNK_SECONDS), { chunks });
    const assets = new AssetService({ assets: new AssetRepository(db), dataDir: dir, retentionDays: 0, log });
    timeline = new TimelineService({ timelines: new TimelineRepository(db), chunks, audio, assets, dataDir: dir });
    const started = await longForm.start([{ voice: VOICE, text: 'One is first. Two comes next. Three ends it.', language: 'en-US' }], {}, 'key_a');
    await queue.wait(started.job.id);
    task = taskService.owned(started.task.id, 'key_a');
  });

  after(() => fixture.close());

  test('a long-form task starts with its chunks one after another, the merge pause between them', () => {
    const view = timeline.view(task);
    assert.equal(view.version, 0);
    assert.deepEqual(
      view.blocks.map((block) => block.source),
      [0, 1, 2].map((index) => ({ kind: 'chunk', index })),
    );
    view.blocks.forEach((block, index) => {
      near(block.start, index * (CHUNK_SECONDS + MERGE_DEFAULTS.pauseMs / 1000), `block ${index} start`);
      near(block.source_duration ?? 0, CHUNK_SECONDS, `block ${index} length`);
    });
    near(view.duration, view.blocks[2]!.end, 'duration');
  });

  test('a layout saves as the next version; a stale version is 409; bad blocks are 400 naming them', () => {
    const view = timeline.view(task);
    const blocks = view.blocks.map(({ id, track, start, trim_start, trim_end }) => ({ id, track, start, trim_start, trim_end }));
    blocks[2]!.start += 1;
    const saved = timeline.saveLayout(task, { version: view.version, blocks });
    assert.equal(saved.version, view.version + 1);
    near(timeline.view(task).duration, view.duration + 1, 'duration after moving the last block');
    assert.throws(
      () => timeline.saveLayout(task, { version: view.version, blocks }),
      (error: unknown) => error instanceof ApiError && error.statusCode === 409,
    );
    const bad = [{ ...blocks[0]!, trim_end: 99 }, blocks[1]!, { ...blocks[2]!, id: 'blk_unknown' }];
    assert.throws(
      () => timeline.saveLayout(task, { version: saved.version, blocks: bad }),
      (error: unknown) => {
        const details = error instanceof ApiError && error.code === 'invalid_layout' ? JSON.stringify(error.details) : '';
        return details.includes('blk_unknown') && details.includes(blocks[0]!.id) && details.includes('past the end of its source');
      },
    );
  });

  test('the render plan has every audible block as an input and no picture yet', () => {
    const plan = timeline.renderPlan(task, 'key_a');
    assert.equal(plan.inputs.length, 3);
    assert.equal(plan.picture, null);
    near(plan.duration, timeline.view(task).duration, 'plan duration');
  });
});
