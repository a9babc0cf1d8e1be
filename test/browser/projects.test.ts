import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { components } from '../../src/client/schema.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { assertAccessible, audioDuration, chunksDone, SYNTHESIS_MS, useStudio } from './studio.js';

type Project = components['schemas']['Project'];

const NAME = 'Morning show';
/** Two speakers with two fast voices, three lines; the third is written last and moved up to second place. */
const CAST = [
  { name: 'Ada', voice: 'pico:en-US' },
  { name: 'Ben', voice: 'pico:en-GB' },
];
const LINES = [
  { speaker: 'Ada', text: 'Good morning and welcome to the show.' },
  { speaker: 'Ada', text: 'Today we have a guest.' },
  { speaker: 'Ben', text: 'Thank you for having me.' },
];

/** Loads the audio element named `label` and answers its duration once known. */
async function loadedDuration(page: Page, label: string): Promise<number> {
  await page.getByLabel(label, { exact: true }).evaluate((audio: HTMLAudioElement) => audio.load());
  return audioDuration(page, label);
}

async function allSaved(page: Page): Promise<void> {
  await page.getByText('All changes saved').waitFor({ timeout: 10_000 });
}

describe('projects screen', () => {
  const studio = useStudio();

  const apiCall = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${studio.server.url}${path}`, {
      method,
      headers: { 'X-API-Key': studio.admin.key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.ok(response.ok, await response.clone().text());
    return (await response.json()) as T;
  };

  test('a two-speaker project is written, generated, and found intact after a reload', { timeout: 300_000 }, async () => {
    // Signed in with no screen named, the studio opens on Projects.
    const page = await studio.open('', 'desktop');
    await page.getByRole('heading', { name: 'Your projects' }).waitFor();
    await page.getByLabel('Name of the new project').fill(NAME);
    await page.getByRole('button', { name: 'New project' }).click();
    await page.waitForFunction(() => /^#\/projects\?project=proj_/.test(location.hash));
    const projectId = new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('project')!;
    assert.equal(await page.getByLabel('Project name').inputValue(), NAME);

    for (const [index, { name, voice }] of CAST.entries()) {
      await page.getByRole('button', { name: 'Add speaker' }).click();
      const speaker = page.getByRole('listitem', { name: `Speaker ${index + 1}` });
      await speaker.getByLabel('Name').fill(name);
      await speaker.getByLabel('Voice').selectOption(voice);
    }
    // New lines alternate between the speakers: Ada, Ben, Ada.
    const written = [LINES[0]!, LINES[2]!, LINES[1]!];
    for (const [index, line] of written.entries()) {
      await page.getByRole('button', { name: 'Add line' }).click();
      const row = page.getByRole('listitem', { name: `Line ${index + 1}` });
      assert.equal(await row.getByLabel('Speaker').inputValue(), line.speaker);
      await row.getByLabel('Text').fill(line.text);
    }
    await page.getByRole('listitem', { name: 'Line 3' }).getByRole('button', { name: 'Move up' }).click();
    await allSaved(page);
    const held = await apiCall<Project>('GET', `/api/projects/${projectId}`);
    assert.deepEqual(held.script.lines, LINES);
    assert.deepEqual(
      held.script.speakers.map((speaker) => [speaker.name, speaker.voice_id]),
      CAST.map((speaker) => [speaker.name, speaker.voice]),
    );

    await page.getByRole('button', { name: 'Generate' }).click();
    await chunksDone(page, LINES.length);
    await page.getByRole('listitem', { name: 'Sentence 3' }).getByText(LINES[2]!.text).waitFor();
    await page.getByRole('link', { name: 'Open in timeline' }).waitFor();
    // The open task is named by its first words, as in the list above it.
    await page.getByRole('heading', { name: '“Good morning and welcome to the show. Today…”' }).waitFor();
    // The project's list of tasks has caught up with the finished task (it reads the project once more).
    await page.locator('[aria-label="Tasks of the project"] li[data-status="completed"]').waitFor({ timeout: SYNTHESIS_MS });
    await assertAccessible(page, 'a project open and generated');

    // Another tab renames the project meanwhile: the next edit here is refused, said in plain words, and the project reloaded.
    const renamed = 'Morning show, renamed elsewhere';
    await apiCall('PUT', `/api/projects/${projectId}`, { name: renamed });
    await page.getByLabel('Project name').fill(`${NAME}!`);
    await page.getByText('This project was changed in another window or tab').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByLabel('Project name').inputValue(), renamed);
    await page.getByLabel('Project name').fill(NAME);
    await allSaved(page);
    await page.screenshot({ path: `${REPO_ROOT}docs/images/studio-project.png`, fullPage: true });

    // After a reload, the project is reopened from the list: name, cast, lines and audio are as they were.
    await page.goto('/#/projects');
    await page.reload();
    const card = page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: NAME });
    await card.getByText('3 lines · Ada, Ben · 1 task').waitFor();
    await page
      .getByRole('list', { name: 'Recent work' })
      .getByRole('link', { name: /^Open project/ })
      .first()
      .waitFor();
    await page.screenshot({ path: `${REPO_ROOT}docs/images/studio-projects.png` });
    await card.getByRole('link', { name: NAME }).click();

    assert.equal(await page.getByLabel('Project name').inputValue(), NAME);
    for (const [index, { name, voice }] of CAST.entries()) {
      const speaker = page.getByRole('listitem', { name: `Speaker ${index + 1}` });
      assert.equal(await speaker.getByLabel('Name').inputValue(), name);
      assert.equal(await speaker.getByLabel('Voice').inputValue(), voice);
    }
    for (const [index, line] of LINES.entries()) {
      const row = page.getByRole('listitem', { name: `Line ${index + 1}` });
      assert.equal(await row.getByLabel('Speaker').inputValue(), line.speaker);
      assert.equal(await row.getByLabel('Text').inputValue(), line.text);
    }
    await chunksDone(page, LINES.length);
    for (const index of LINES.keys()) assert.ok((await loadedDuration(page, `Audio of sentence ${index + 1}`)) > 0);

    // At phone width nothing scrolls sideways.
    const phone = await studio.open(`projects?project=${projectId}`, 'phone');
    await chunksDone(phone, LINES.length);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
    await assertAccessible(phone, 'a project open and generated (phone)');

    // Deleting asks first, naming what goes; then the project is gone from the service.
    await page.getByRole('button', { name: 'Delete project' }).click();
    await page.getByText(`Delete “${NAME}” for good: its script, its 2 speakers and 3 lines, its one task`).waitFor();
    await page.getByRole('button', { name: 'Delete everything' }).click();
    await page.getByRole('heading', { name: 'Your projects' }).waitFor();
    const gone = await fetch(`${studio.server.url}/api/projects/${projectId}`, { headers: { 'X-API-Key': studio.admin.key } });
    assert.equal(gone.status, 404);
  });
});
