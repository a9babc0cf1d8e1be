import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { injectMultipart, injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'tts:timeline=1000'];
/** A one-frame PNG of one colour, made by ffmpeg. */
const png = (colour: string) =>
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=64x48`, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-']);
const TEXT = 'One short line. Two short lines. Three short lines.';
const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 0.002, `${what}: ${actual} vs ${expected}`);

function rmsBetween(samples: Float32Array, rate: number, from: number, to: number): number {
  const window = samples.subarray(Math.floor(from * rate), Math.floor(to * rate));
  return Math.sqrt(window.reduce((sum, sample) => sum + sample * sample, 0) / Math.max(1, window.length));
}

/** The layout fields of a block, as a client that kept it sends them back. */
function layoutFields(block: any) {
  const { id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted } = block;
  return { id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted };
}

describe('bringing back a removed timeline block', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });
  const post = (path: string, json: unknown) => injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, json });
  let taskId: string;

  before(async () => {
    const started = await post('/api/generate/clone-chunked', { voice_id: 'pico:en-US', text: TEXT, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    taskId = started.body.task_id;
    for (;;) {
      const task = await get(`/api/tasks/${taskId}`);
      if (task.body.status === 'completed') break;
      assert.ok(!task.body.chunks.some((chunk: { state: string }) => chunk.state === 'failed'), task.text);
      await sleep(100);
    }
  });

  /** The rendered WAV of the timeline as it is now. */
  async function render() {
    const response = await fixture.server.fetch(new URL('/api/generate/merge-timeline', fixture.server.url), {
      method: 'POST',
      headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
      body: JSON.stringify({ task_id: taskId }),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200, bytes.toString().slice(0, 300));
    return parseWav(bytes);
  }

  test('a layout listing a removed block’s id brings it back with its fields and its source; the render plays it again', async () => {
    const original = (await get(`/api/timeline/${taskId}`)).body;
    const [first, second, third] = original.blocks;
    // The middle block, after the last one with its own trims, gain and fades, so the render hears it alone there.
    const moved = { ...layoutFields(second), start: third.end + 1, trim_start: 0.05, gain_db: -6, fade_in: 0.1, fade_out: 0.2 };
    const edited = await post(`/api/timeline/${taskId}/layout`, { version: original.version, blocks: [layoutFields(first), moved, layoutFields(third)] });
    assert.equal(edited.status, 200, edited.text);
    const kept = edited.body.blocks[1];

    const removal = await post(`/api/timeline/${taskId}/layout`, { version: edited.body.version, blocks: [layoutFields(first), layoutFields(third)] });
    assert.equal(removal.status, 200, removal.text);
    assert.deepEqual(
      removal.body.blocks.map((block: { id: string }) => block.id),
      [first.id, third.id],
    );
    close(removal.body.duration, third.end, 'the duration without the removed block');
    const withoutIt = await render();
    close(withoutIt.samples.length / withoutIt.sampleRate, removal.body.duration, 'the render without the removed block');

    const otherSource = await post(`/api/timeline/${taskId}/layout`, {
      version: removal.body.version,
      blocks: [layoutFields(first), { ...layoutFields(kept), source: { kind: 'chunk', index: 0 } }, layoutFields(third)],
    });
    assert.equal(otherSource.status, 400, 'a removed block comes back with its own source only');
    assert.deepEqual(otherSource.body.error.details.problems, [
      { block_id: second.id, field: 'source', problem: 'source is read-only and differs from the stored value' },
    ]);

    const restore = await post(`/api/timeline/${taskId}/layout`, {
      version: removal.body.version,
      blocks: [layoutFields(first), layoutFields(kept), layoutFields(third)],
    });
    assert.equal(restore.status, 200, restore.text);
    const shown = (await get(`/api/timeline/${taskId}`)).body;
    assert.equal(shown.version, removal.body.version + 1);
    assert.deepEqual(shown.blocks[1], kept, 'the block is back with its source, place, trims, gain and fades');
    close(shown.duration, kept.end, 'the duration reaches the restored block again');

    const pcm = await render();
    close(pcm.samples.length / pcm.sampleRate, shown.duration, 'the render with the restored block');
    assert.ok(rmsBetween(pcm.samples, pcm.sampleRate, kept.start + 0.2, kept.end - 0.3) > 0.01, 'the restored block sounds at its place');
  });

  test('an id this timeline never had is still refused, and a removed one cannot be listed twice', async () => {
    const current = (await get(`/api/timeline/${taskId}`)).body;
    const blocks = current.blocks.map(layoutFields);
    const unknown = await post(`/api/timeline/${taskId}/layout`, { version: current.version, blocks: [...blocks, { ...blocks[0], id: 'never-here' }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'invalid_layout');
    assert.deepEqual(unknown.body.error.details.problems, [{ block_id: 'never-here', problem: 'unknown block' }]);

    const removal = await post(`/api/timeline/${taskId}/layout`, { version: current.version, blocks: blocks.slice(1) });
    assert.equal(removal.status, 200, removal.text);
    const twice = await post(`/api/timeline/${taskId}/layout`, { version: removal.body.version, blocks: [blocks[0], blocks[0], ...blocks.slice(1)] });
    assert.equal(twice.status, 400);
    assert.deepEqual(twice.body.error.details.problems, [{ block_id: blocks[0].id, problem: 'block listed twice' }]);
    assert.equal((await get(`/api/timeline/${taskId}`)).body.version, removal.body.version, 'refused layouts change nothing');
  });

  test('a removed picture block can come back until an import replaces its picture', async () => {
    const imported = await injectMultipart(
      fixture.server,
      fixture.admin.key,
      `/api/timeline/${taskId}/import-video`,
      [{ name: 'red.png', bytes: png('red') }],
      {
        duration: '2',
      },
    );
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const withPicture = imported.body.timeline;
    const picture = withPicture.blocks.find((block: { id: string }) => block.id === imported.body.block_id);
    const others = withPicture.blocks.filter((block: { id: string }) => block.id !== picture.id).map(layoutFields);
    const removal = await post(`/api/timeline/${taskId}/layout`, { version: withPicture.version, blocks: others });
    assert.equal(removal.status, 200, removal.text);
    const restore = await post(`/api/timeline/${taskId}/layout`, { version: removal.body.version, blocks: [...others, layoutFields(picture)] });
    assert.equal(restore.status, 200, restore.text);
    assert.deepEqual(restore.body.blocks.at(-1), picture, 'the picture block is back');

    const removedAgain = await post(`/api/timeline/${taskId}/layout`, { version: restore.body.version, blocks: others });
    assert.equal(removedAgain.status, 200, removedAgain.text);
    const replaced = await injectMultipart(
      fixture.server,
      fixture.admin.key,
      `/api/timeline/${taskId}/import-video`,
      [{ name: 'blue.png', bytes: png('blue') }],
      {
        duration: '2',
      },
    );
    assert.equal(replaced.status, 201, JSON.stringify(replaced.body));
    const current = replaced.body.timeline;
    assert.deepEqual(
      current.media.map((media: { media_id: string }) => media.media_id),
      [replaced.body.media_id],
      'the replaced picture is deleted',
    );
    const gone = await post(`/api/timeline/${taskId}/layout`, {
      version: current.version,
      blocks: [...current.blocks.map(layoutFields), layoutFields(picture)],
    });
    assert.equal(gone.status, 400);
    assert.deepEqual(gone.body.error.details.problems, [{ block_id: picture.id, problem: 'unknown block' }]);
  });
});
