import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { removeDir, tempDir } from '../helpers/timbre.js';
import { assertAccessible, useStudio } from './studio.js';

const run = promisify(execFile);

/** Speech and renders are real; a built-in voice speaks in seconds, but the machine may be busy. */
const JOB_MS = 120_000;

interface TimelineBlock {
  id: string;
  track: string;
  start: number;
  end: number;
  gain_db: number;
  fade_in: number;
  source: { kind: string; index?: number };
}
interface TimelineView {
  version: number;
  duration: number;
  tracks: { id: string; kind: string; name: string }[];
  blocks: TimelineBlock[];
}

const chunkBlock = (timeline: TimelineView, index: number): TimelineBlock => {
  const block = timeline.blocks.find((candidate) => candidate.source.kind === 'chunk' && candidate.source.index === index);
  assert.ok(block, `chunk ${index} is on the timeline`);
  return block;
};

/** The start a block's accessible name gives ("Chunk 2, 3.21 s to 5.40 s"). */
async function shownStart(page: Page, name: string): Promise<number> {
  const label = await page.getByRole('button', { name: new RegExp(`^${name},`) }).getAttribute('aria-label');
  const match = /, ([\d.]+) s to /.exec(label ?? '');
  assert.ok(match?.[1], `the block is named with its start: ${label}`);
  return Number(match[1]);
}

/** Waits until the media element has loaded the result and knows its length. */
async function mediaDuration(page: Page, selector: string): Promise<number> {
  const handle = await page.waitForFunction(
    (css) => {
      const media = document.querySelector<HTMLMediaElement>(css);
      return media && Number.isFinite(media.duration) && media.duration > 0 ? media.duration : false;
    },
    selector,
    { timeout: JOB_MS, polling: 100 },
  );
  return Number(await handle.jsonValue());
}

describe('Timeline screen', () => {
  const studio = useStudio();
  let taskId: string;
  let media: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, studio.server.url), {
      method,
      headers: { 'x-api-key': studio.admin.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const timeline = async (): Promise<TimelineView> => (await call('GET', `/api/timeline/${taskId}`)).body;

  /** Asks the API until `check` holds of the stored timeline (saves go out after a short pause). */
  async function storedTimeline(check: (stored: TimelineView) => boolean, what: string): Promise<TimelineView> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const stored = await timeline();
      if (check(stored)) return stored;
      if (Date.now() > deadline) assert.fail(`${what}: the stored timeline is ${JSON.stringify(stored.blocks)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  before(async () => {
    media = await tempDir('timbre-studio-timeline-');
    const started = await call('POST', '/api/generate/clone-chunked', {
      voice_id: 'pico:en-US',
      text: 'The first sentence starts the story. The second sentence ends it.',
      language: 'en-US',
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    taskId = started.body.task_id;
    const deadline = Date.now() + JOB_MS;
    for (;;) {
      const task = await call('GET', `/api/tasks/${taskId}`);
      if (task.body.status === 'completed') break;
      assert.ok(['queued', 'running'].includes(task.body.status) && Date.now() < deadline, `the long-form task ends completed: ${JSON.stringify(task.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  after(() => removeDir(media));

  test(
    'warns when a dragged block overlaps the next, undoes the move with Ctrl+Z, and previews the mix with a moving playhead',
    { timeout: JOB_MS },
    async () => {
      const page = await studio.open(`timeline?task=${taskId}`);
      const first = page.getByRole('button', { name: /^Chunk 1,/ });
      const second = page.getByRole('button', { name: /^Chunk 2,/ });
      await second.waitFor();
      const before = chunkBlock(await timeline(), 0).start;
      assert.match((await first.getAttribute('aria-label')) ?? '', /^Chunk 1, \d+\.\d{3} s to \d+\.\d{3} s/, 'times are shown to the millisecond');

      // Drag the first chunk so that it starts in the middle of the second.
      const [from, onto] = [await first.boundingBox(), await second.boundingBox()];
      assert.ok(from && onto);
      await page.mouse.move(from.x + 4, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(onto.x + onto.width / 2 + 4, from.y + from.height / 2, { steps: 10 });
      await page.mouse.up();
      const warning = page.getByRole('status').filter({ hasText: /Chunk 2 overlaps Chunk 1|Chunk 1 overlaps Chunk 2/ });
      await warning.waitFor();
      await storedTimeline((stored) => chunkBlock(stored, 0).start > before + 0.2, 'the overlapping move is saved');
      assert.match((await first.getAttribute('aria-label')) ?? '', /overlaps Chunk 2/, 'the block says what it overlaps');

      await page.keyboard.press('Control+z');
      await storedTimeline((stored) => Math.abs(chunkBlock(stored, 0).start - before) < 1e-6, 'undo puts the first chunk back');
      assert.ok(Math.abs((await shownStart(page, 'Chunk 1')) - before) < 0.0005, 'the block shows its old start again');
      await warning.waitFor({ state: 'detached' });
      await page.keyboard.press('Control+Shift+z');
      await storedTimeline((stored) => chunkBlock(stored, 0).start > before + 0.2, 'redo moves it again');
      await page.getByRole('button', { name: 'Undo' }).click();
      await storedTimeline((stored) => Math.abs(chunkBlock(stored, 0).start - before) < 1e-6, 'the Undo button puts it back');

      // Play previews the mix in the browser: the playhead moves along the ruler.
      const playhead = page.getByRole('slider', { name: 'Playhead' });
      assert.equal(await playhead.getAttribute('aria-valuenow'), '0');
      await page.getByRole('button', { name: 'Play' }).click();
      await page.waitForFunction(() => Number(document.querySelector('[role=slider][aria-label=Playhead]')?.getAttribute('aria-valuenow')) > 0.3, undefined, {
        timeout: 20_000,
        polling: 100,
      });
      await page.getByRole('button', { name: 'Pause' }).click();
      await studio.shoot(page, 'timeline-preview');
    },
  );

  test('shows the blocks, moves them by drag and keyboard, edits one and renders audio that plays', { timeout: JOB_MS * 2 }, async () => {
    const page = await studio.open(`timeline?task=${taskId}`);
    const first = page.getByRole('button', { name: /^Chunk 1,/ });
    const second = page.getByRole('button', { name: /^Chunk 2,/ });
    await second.waitFor();
    await assertAccessible(page, 'the timeline with its blocks');
    const before = await timeline();
    assert.ok(Math.abs((await shownStart(page, 'Chunk 2')) - chunkBlock(before, 1).start) < 0.006, 'the block stands where the API has it');

    // Drag the second chunk 120 px to the right with the mouse.
    const box = await second.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    const dragged = await storedTimeline((stored) => chunkBlock(stored, 1).start > chunkBlock(before, 1).start + 0.2, 'the drag is saved');
    assert.ok(Math.abs((await shownStart(page, 'Chunk 2')) - chunkBlock(dragged, 1).start) < 0.006, 'the block shows the saved start');
    assert.ok(dragged.duration > before.duration, 'the timeline grew with the moved block');

    // Move the first chunk with the keyboard: three nudges of 0.1 s and one of 1 s.
    await first.focus();
    for (let press = 0; press < 3; press++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    const expected = Math.round((chunkBlock(before, 0).start + 1.3) * 1000) / 1000;
    await storedTimeline((stored) => Math.abs(chunkBlock(stored, 0).start - expected) < 1e-6, `the first chunk starts at ${expected} s`);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')?.split(',')[0]), 'Chunk 1', 'focus stays on the moved block');

    // The inspector edits the selected block.
    await second.click();
    const inspector = page.getByRole('region', { name: 'Block: Chunk 2' });
    await inspector.getByLabel('Gain (dB)').fill('-6');
    await inspector.getByLabel('Fade in (s)').fill('0.2');
    await inspector.getByLabel('Fade in (s)').press('Tab');
    await storedTimeline((stored) => chunkBlock(stored, 1).gain_db === -6 && chunkBlock(stored, 1).fade_in === 0.2, 'the gain and fade are saved');

    // Render audio: progress shows, then the result plays for the timeline's length.
    const layout = await timeline();
    await page.getByRole('button', { name: 'Render audio' }).click();
    const duration = await mediaDuration(page, 'audio[aria-label="Rendered timeline"]');
    assert.ok(Math.abs(duration - layout.duration) < 0.1, `the rendered audio lasts the timeline's ${layout.duration} s (${duration} s)`);
    await page.getByRole('progressbar', { name: 'Render progress' }).waitFor();
    await page.locator('audio[aria-label="Rendered timeline"]').evaluate((audio: HTMLAudioElement) => audio.play());
    await page.waitForFunction(() => (document.querySelector<HTMLAudioElement>('audio[aria-label="Rendered timeline"]')?.currentTime ?? 0) > 0);
    const task = await call('GET', `/api/tasks/${taskId}`);
    assert.deepEqual(
      task.body.renders.map((render: { kind: string; format: string }) => `${render.kind}/${render.format}`),
      ['timeline/wav'],
      'the render is kept as a render of the task',
    );
    await studio.shoot(page, 'timeline');
  });

  test('a removed block comes back with Ctrl+Z as it was, and Ctrl+Shift+Z removes it again', { timeout: JOB_MS }, async () => {
    const page = await studio.open(`timeline?task=${taskId}`);
    const second = page.getByRole('button', { name: /^Chunk 2,/ });
    await second.waitFor();
    const hasSecond = (stored: TimelineView) => stored.blocks.some((block) => block.source.kind === 'chunk' && block.source.index === 1);
    const before = chunkBlock(await timeline(), 1);

    await second.click();
    const confirmation = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await page.getByRole('region', { name: 'Block: Chunk 2' }).getByRole('button', { name: 'Remove from timeline' }).click();
    assert.match(await confirmation, /Undo brings it back/, 'the confirmation says Undo can bring the block back');
    await second.waitFor({ state: 'detached' });
    await storedTimeline((stored) => !hasSecond(stored), 'the removal is saved');

    await page.keyboard.press('Control+z');
    await second.waitFor();
    const restored = await storedTimeline(hasSecond, 'undo brings the block back');
    assert.deepEqual(chunkBlock(restored, 1), before, 'the block is back at its place with its trims, gain and fades');

    await page.keyboard.press('Control+Shift+z');
    await second.waitFor({ state: 'detached' });
    await storedTimeline((stored) => !hasSecond(stored), 'redo removes it again');
    await page.getByRole('button', { name: 'Undo' }).click();
    await storedTimeline(hasSecond, 'the Undo button brings it back too');
  });

  test('fits a phone and moves a block with the keyboard there', { timeout: JOB_MS }, async () => {
    const page = await studio.open(`timeline?task=${taskId}`, 'phone');
    const first = page.getByRole('button', { name: /^Chunk 1,/ });
    await first.waitFor();
    await assertAccessible(page, 'the timeline with its blocks (phone)');
    const before = chunkBlock(await timeline(), 0).start;
    await first.focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await storedTimeline((stored) => Math.abs(chunkBlock(stored, 0).start - Math.max(0, before - 1)) < 1e-6, 'the first chunk moved back 1 s');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling of the page (${overflow} px too wide)`);
    await studio.shoot(page, 'timeline');
  });

  test('opens a task by id, imports audio and an image, and renders an mp4 that plays', { timeout: JOB_MS * 2 }, async () => {
    const tone = join(media, 'tone.wav');
    const still = join(media, 'still.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=2', tone]);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240', '-frames:v', '1', still]);

    const page = await studio.open('timeline');
    assert.equal(await page.getByRole('link', { name: 'Start a long-form task' }).getAttribute('href'), '#/long-form');
    await page.getByLabel('Task id').fill(taskId);
    await page.getByRole('button', { name: 'Open timeline' }).click();
    await page.getByRole('button', { name: /^Chunk 1,/ }).waitFor();

    const audioForm = page.getByRole('form', { name: 'Import audio' });
    await audioForm.getByLabel('Audio file').setInputFiles(tone);
    await audioForm.getByLabel('Start (s)').fill('0.5');
    await audioForm.getByRole('button', { name: 'Import audio' }).click();
    await page.getByRole('button', { name: /^music,/ }).waitFor();
    const withMusic = await timeline();
    const music = withMusic.blocks.find((block) => block.source.kind === 'asset');
    assert.ok(music && music.start === 0.5, 'the imported audio is a block at 0.5 s');

    await page.getByLabel('Video or image file').setInputFiles(still);
    await page.getByLabel('Image shown for (s)').fill('2');
    await page.getByRole('button', { name: 'Import picture' }).click();
    await page.getByRole('button', { name: /^Image,/ }).waitFor();
    assert.ok(
      (await timeline()).tracks.some((track) => track.kind === 'video'),
      'the image is on the video track',
    );

    await page.getByRole('button', { name: 'Render video (mp4)' }).click();
    const duration = await mediaDuration(page, 'video[aria-label="Rendered timeline"]');
    assert.ok(Math.abs(duration - withMusic.duration) < 0.2, `the mp4 lasts the timeline (${duration} s)`);
    const renders = (await call('GET', `/api/tasks/${taskId}`)).body.renders;
    assert.ok(
      renders.some((render: { kind: string; format: string }) => render.kind === 'timeline' && render.format === 'mp4'),
      'the mp4 is a render',
    );

    // The task is now among the ones this browser opened.
    await page.getByRole('link', { name: 'Other timelines' }).click();
    await page.getByRole('link', { name: taskId }).first().waitFor();
  });
});
