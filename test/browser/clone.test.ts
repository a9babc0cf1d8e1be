import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REFERENCE_AUDIO } from '../helpers/paths.js';
import { assertAccessible, useStudio } from './studio.js';

/**
 * A clone runs real engines. This screen's tests are about the page, so clones start from Pico's
 * two English presets only; the full search over every engine is tested in cloning.test.ts. Still
 * minutes on a loaded CI machine, hence the bound.
 */
const CLONE_MS = 420_000;

/** wavesurfer draws into a shadow root inside the waveform's element; CSS locators reach into it. */
async function waveformDrawn(page: Page, label: string) {
  const waveform = page.getByRole('img', { name: `Waveform of ${label}` });
  await waveform.locator('canvas').first().waitFor({ timeout: 30_000 });
  return waveform;
}

async function figure(page: Page, term: string): Promise<string> {
  return (await page.locator('.clone-result dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
}

describe('Clone screen', () => {
  const studio = useStudio({ args: ['--clone-base-engines', 'pico'] });

  test('an uploaded sample is shown, cloned with live progress, and the new voice exists', { timeout: CLONE_MS + 120_000 }, async () => {
    const page = await studio.open('clone', 'desktop');
    await page.getByLabel('Add audio files').setInputFiles(`${REFERENCE_AUDIO}/jfk.wav`);
    const waveform = await waveformDrawn(page, 'jfk.wav');
    // The whole sample starts as one region the person can drag.
    await waveform.locator('[part~="region"]').first().waitFor();
    await page.getByText('Uses one whole sample.').waitFor();
    await assertAccessible(page, 'Clone with an uploaded sample');

    await page.getByLabel('Name').fill('Studio JFK clone');
    await page.getByRole('button', { name: 'Clone the voice' }).click();
    // The job's state shows while it runs, before any result.
    await page.getByRole('progressbar', { name: 'Clone progress' }).waitFor({ timeout: 30_000 });
    await page.locator('.job[data-status="running"]').waitFor({ timeout: CLONE_MS });
    assert.equal(await page.getByRole('region', { name: 'New voice' }).count(), 0, 'progress is shown before the result');
    await page.getByRole('button', { name: 'Cancel the clone' }).waitFor();

    const result = page.getByRole('region', { name: 'New voice' });
    // The result, or the job's end without one (then its state and error say why).
    await page.locator('.clone-result, .job[data-status="failed"], .job[data-status="cancelled"]').first().waitFor({ timeout: CLONE_MS });
    assert.equal(await page.locator('.job').getAttribute('data-status'), 'completed', await page.locator('.job').innerText());
    await result.waitFor();
    const similarity = await figure(page, 'Similarity');
    const intelligibility = await figure(page, 'Intelligibility');
    assert.match(similarity, /^\d+ %/);
    assert.match(intelligibility, /^\d+ %/);
    const speakWith = new URLSearchParams((await page.getByRole('link', { name: 'Speak with this voice' }).getAttribute('href'))?.split('?')[1]);
    const voiceId = speakWith.get('voice') ?? '';
    assert.match(voiceId, /^voice_/);

    const answer = await fetch(`${studio.server.url}/api/voices/${voiceId}`, { headers: { 'X-API-Key': studio.admin.key } });
    assert.equal(answer.status, 200);
    const voice = (await answer.json()) as {
      name: string;
      type: string;
      similarity: number | null;
      baseline_similarity: number | null;
      intelligibility: number | null;
    };
    assert.equal(voice.name, 'Studio JFK clone');
    assert.equal(voice.type, 'clone');
    assert.equal(similarity, `${Math.round((voice.similarity ?? Number.NaN) * 100)} %${similarity.slice(similarity.indexOf('%') + 1)}`);
    assert.equal(intelligibility.split(' %')[0], String(Math.round((voice.intelligibility ?? Number.NaN) * 100)));
    // The result says in words whether the clone beats the nearest preset; when it does not, that is a warning with the way to a real cloning model.
    const warnings = result.getByRole('list', { name: 'Warnings' });
    if (voice.similarity !== null && voice.baseline_similarity !== null && voice.similarity <= voice.baseline_similarity) {
      await warnings.getByText('This clone is not closer to the sample than the nearest ready-made voice').waitFor();
      assert.equal(await warnings.getByRole('link', { name: 'Models on the System screen' }).getAttribute('href'), '#/system');
      assert.equal(await result.getByText('No warnings').count(), 0);
    } else if (voice.similarity !== null && voice.baseline_similarity !== null) {
      await result.getByText('The clone is closer to the sample than the nearest ready-made voice').waitFor();
    }
    await assertAccessible(page, 'Clone with its result');
    await result.scrollIntoViewIfNeeded();
    await studio.shoot(page, 'clone');

    // The preview is rendered by the service and plays in the page.
    await page.getByRole('button', { name: 'Make a preview' }).click();
    const preview = page.getByLabel('Preview of Studio JFK clone');
    await preview.waitFor({ timeout: 120_000 });
    await page.waitForFunction((audio) => audio instanceof HTMLMediaElement && audio.duration > 0, await preview.elementHandle(), { timeout: 30_000 });
  });

  test('chosen regions go to create-clips, and the clone can be cancelled', { timeout: 180_000 }, async () => {
    const page = await studio.open('clone', 'desktop');
    await page.getByLabel('Add audio files').setInputFiles(`${REFERENCE_AUDIO}/jfk.wav`);
    await waveformDrawn(page, 'jfk.wav');
    await page.getByRole('button', { name: 'Split last part of jfk.wav' }).click();
    await page.getByLabel('jfk.wav, part 1 start (s)').fill('0.5');
    await page.getByLabel('jfk.wav, part 1 start (s)').press('Tab');
    await page.getByText('Uses 2 parts of 1 recording.').waitFor();
    // The redrawn waveform shows both parts as regions.
    const regions = page.getByRole('img', { name: 'Waveform of jfk.wav' }).locator('[part~="region"]');
    await regions.nth(1).waitFor();
    assert.equal(await regions.count(), 2);

    await page.getByLabel('Name').fill('Studio cancelled clone');
    await page.getByRole('button', { name: 'Clone the voice' }).click();
    await page.getByRole('button', { name: 'Cancel the clone' }).click();
    await page.locator('.job[data-status="cancelled"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('alert').count(), 0, 'no error from sending the regions or cancelling');

    const answer = await fetch(`${studio.server.url}/api/voices?type=clone&q=${encodeURIComponent('Studio cancelled clone')}`, {
      headers: { 'X-API-Key': studio.admin.key },
    });
    const { voices } = (await answer.json()) as { voices: unknown[] };
    assert.deepEqual(voices, [], 'a cancelled clone leaves no voice');
  });

  test('recording from the microphone gives a sample with its waveform (phone)', { timeout: 120_000 }, async () => {
    const page = await studio.open('clone', 'phone');
    await page.getByRole('button', { name: 'Record from the microphone' }).click();
    const timer = page.getByRole('timer', { name: 'Recording time' });
    await timer.waitFor();
    // Chromium's fake microphone beeps; record three seconds of it.
    await timer.filter({ hasText: /^(0:0[3-9]|0:[1-5]\d|[1-9]\d*:\d\d)/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop recording' }).click();

    await waveformDrawn(page, 'Recording 1');
    const end = Number(await page.getByLabel('Recording 1, part 1 end (s)').inputValue());
    assert.ok(end >= 2, `the recording lasts about as long as it ran (${end} s)`);
    await page.getByText('Uses one whole sample.').waitFor();
    await page.getByLabel('Name').fill('Recorded voice');
    // Only methods this machine can run are offered: voice search needs Kokoro.
    const info = (await (await fetch(`${studio.server.url}/api/system/info`, { headers: { 'X-API-Key': studio.admin.key } })).json()) as {
      engines: { id: string; available: boolean }[];
    };
    const kokoro = info.engines.some((engine) => engine.id === 'kokoro' && engine.available);
    // The availability arrives after the screen: wait for the option's state it implies.
    const voiceSearch = page.locator(`#clone-method option[value="voice_search"]${kokoro ? ':not([disabled])' : '[disabled]'}`);
    await voiceSearch.waitFor({ state: 'attached' });
    if (!kokoro) assert.match((await voiceSearch.textContent()) ?? '', /needs the Kokoro model installed/);
    assert.equal(await page.getByRole('button', { name: 'Clone the voice' }).isEnabled(), true);
    await assertAccessible(page, 'Clone with a recorded sample (phone)');

    await studio.shoot(page, 'clone');
    const overflow = await page.locator('html').evaluate((root) => root.scrollWidth - root.clientWidth);
    assert.ok(overflow <= 0, `no horizontal overflow at 390 px (${overflow} px)`);
  });
});
