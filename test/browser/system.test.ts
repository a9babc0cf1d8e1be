import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { TEST_CATALOG_ENV } from '../../src/platform/models/catalog.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startModelMirrors, type ModelMirrors } from '../helpers/stalled-model.js';
import { removeDir, tempDir } from '../helpers/timbre.js';
import { assertAccessible, useStudio } from './studio.js';

const LONG_TEXT = Array.from({ length: 30 }, (_, index) => `This is sentence number ${index + 1} of a long text that keeps the engine busy.`).join(' ');
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';

/** The page fits the viewport's width: tables scroll inside their own box, never the page. */
async function assertNoPageOverflow(page: Page): Promise<void> {
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
}

/** The service status is re-read only every 15 s; the button reads it at once. */
async function refreshUntilVisible(page: Page, target: Locator, seconds = 20): Promise<void> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; await page.waitForTimeout(500)) {
    if (await target.isVisible()) return;
    await page.getByRole('button', { name: 'Refresh now' }).click();
  }
  await target.waitFor({ timeout: 1 }); // fails naming what never showed
}

describe('System screen', () => {
  const studio = useStudio();

  async function generate(body: Record<string, unknown>): Promise<{ task_id: string; job_id: string }> {
    const response = await fetch(`${studio.server.url}/api/generate/preset`, {
      method: 'POST',
      headers: { 'X-API-Key': studio.admin.key, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'en-US', async: true, ...body }),
    });
    assert.equal(response.status, 202, await response.clone().text());
    return (await response.json()) as { task_id: string; job_id: string };
  }

  async function taskStatus(taskId: string): Promise<string> {
    const response = await fetch(`${studio.server.url}/api/tasks/${taskId}`, { headers: { 'X-API-Key': studio.admin.key } });
    return ((await response.json()) as { status: string }).status;
  }

  test('shows load, engines and models, and the queue with a cancel per job (desktop)', { timeout: 120_000 }, async () => {
    const page = await studio.open('system', 'desktop');
    const load = page.getByRole('region', { name: 'Load' });
    const cpu = load.getByRole('meter', { name: 'CPU', exact: true });
    await cpu.waitFor();
    assert.match((await cpu.getAttribute('value')) ?? '', /^\d+(\.\d+)?$/);
    await load
      .getByText(/^\d+\.\d %$/)
      .first()
      .waitFor();
    await load.getByText(/[\d.]+ (MiB|GiB) of [\d.]+ (MiB|GiB) used/).waitFor();

    // Without a queue URL the service runs its engines itself: no workers to show.
    await page.getByRole('region', { name: 'Service' }).getByText('Up for').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Workers' }).count(), 0);

    const engines = page.getByRole('table', { name: 'Engines' });
    for (const engine of ['pico', 'rhvoice']) {
      const row = engines.getByRole('row', { name: new RegExp(`^${engine}\\b`) });
      await row.getByText('available', { exact: true }).waitFor();
    }
    // A neural engine without its model files says what it misses.
    await engines
      .getByRole('row', { name: /^kokoro\b/ })
      .getByText('missing', { exact: true })
      .waitFor();

    const queue = page.getByRole('region', { name: 'Queue' });
    await queue.getByText('No jobs of yours are running or waiting.').waitFor();

    // A slow job holds the only slot (concurrency 1), so the second one waits in line.
    const running = await generate({ voice_id: SLOW_VOICE, text: LONG_TEXT });
    const waiting = await generate({ voice_id: 'pico:en-US', text: 'Waiting in line.' });
    const jobs = queue.getByRole('table', { name: 'Your jobs' });
    await jobs.getByRole('row', { name: new RegExp(waiting.job_id) }).waitFor({ timeout: 15_000 });
    await jobs
      .getByRole('row', { name: new RegExp(running.job_id) })
      .getByText('running', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    await studio.shoot(page, 'system');

    await queue.getByRole('button', { name: `Cancel job ${waiting.job_id}` }).click();
    await queue.getByRole('status').getByText(`${waiting.job_id}: cancelled`).waitFor();
    await jobs.getByRole('row', { name: new RegExp(waiting.job_id) }).waitFor({ state: 'detached' });
    assert.equal(await taskStatus(waiting.task_id), 'cancelled');

    await queue.getByRole('button', { name: `Cancel job ${running.job_id}` }).click();
    await queue.getByText('No jobs of yours are running or waiting.').waitFor({ timeout: 15_000 });
    assert.equal(await taskStatus(running.task_id), 'cancelled');
  });

  test('fits a phone', async () => {
    const page = await studio.open('system', 'phone');
    await page.getByRole('meter', { name: 'Memory' }).waitFor();
    await page
      .getByRole('table', { name: 'Engines' })
      .getByRole('row', { name: /^pico\b/ })
      .waitFor();
    await page
      .getByRole('region', { name: 'Queue' })
      .getByText(/running and \d+ queued of yours/)
      .waitFor();
    await assertNoPageOverflow(page);
    await assertAccessible(page, 'System (phone)');
    await studio.shoot(page, 'system');
  });
});

describe('System screen, scaled out through Redis', () => {
  let redis: RunningRedis;
  before(async () => {
    redis = await startRedis();
  });
  // Its local worker (on by default) announces this machine on the queue.
  const studio = useStudio({ env: () => ({ TIMBRE_QUEUE_URL: redis.url }) });
  after(async () => {
    await redis?.close();
  });

  test('lists the workers, and says when the queue stops answering', { timeout: 90_000 }, async () => {
    const page = await studio.open('system', 'desktop');
    const panel = page.getByRole('region', { name: 'Workers' });
    const table = panel.getByRole('table', { name: 'Workers' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: hostname(), exact: true }) });
    await refreshUntilVisible(page, row);
    assert.equal(await table.locator('tbody tr').count(), 1);
    const [id, engines, slots] = await row.getByRole('cell').allInnerTexts();
    assert.ok(id, 'the worker id is shown');
    assert.ok(engines?.split(', ').includes('espeak'), `engines: ${engines}`);
    assert.ok(Number(slots) >= 1, `slots: ${slots}`);
    await row.getByText(/^\d+ s ago$/).waitFor();
    await studio.shoot(page, 'system-workers');

    await redis.stop();
    await refreshUntilVisible(page, panel.getByRole('alert').getByText('The queue (Redis) does not answer', { exact: false }));
    assert.equal(await table.count(), 0, 'no worker is listed while Redis is away');
  });
});

describe('System screen, installing neural models', () => {
  let root: string;
  let mirrors: ModelMirrors;
  before(async () => {
    root = await tempDir('timbre-studio-models-');
    mirrors = await startModelMirrors(root);
  });
  // TIMBRE_MODELS_FROM is set in CI; empty means unset, so installs download from the mirror.
  const studio = useStudio({
    env: () => ({ [TEST_CATALOG_ENV]: mirrors.catalogFile, TIMBRE_MODELS_FROM: '', TIMBRE_MODELS_DIR: `${root}/models` }),
  });
  after(async () => {
    await mirrors?.close();
    if (root) await removeDir(root);
  });

  test('a model is installed with its progress shown, and an install can be cancelled', { timeout: 120_000 }, async () => {
    const page = await studio.open('system', 'desktop');
    const models = page.getByRole('list', { name: 'Neural models' });
    const stalled = models.getByRole('listitem').filter({ hasText: 'Stalled test model' });
    await stalled.getByRole('button', { name: 'Install' }).click();
    // Half the archive arrives, then nothing: the bar stays at 45 % (the download is 90 % of an install).
    await stalled.getByText('Working: downloading (45 %)').waitFor({ timeout: 30_000 });
    assert.equal(await stalled.getByRole('progressbar', { name: 'Installing Stalled test model' }).getAttribute('value'), '45');
    await assertAccessible(page, 'System with the models panel and an install under way');
    await studio.shoot(page, 'system-models');
    await stalled.getByRole('button', { name: 'Cancel' }).click();
    await stalled.getByRole('button', { name: 'Install' }).waitFor({ timeout: 15_000 });

    const silero = models.getByRole('listitem').filter({ hasText: 'Silero VAD' });
    await silero.getByText('license MIT').waitFor();
    await silero.getByRole('button', { name: 'Install' }).click();
    await silero.getByText('Installed', { exact: true }).waitFor({ timeout: 60_000 });
    await silero.getByRole('button', { name: 'Remove' }).click();
    await silero.getByRole('button', { name: 'Install' }).waitFor();
  });
});
