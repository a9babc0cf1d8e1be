import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { assertAccessible, useStudio } from './studio.js';

/** Synthesis is real; a built-in voice answers in seconds, but the machine may be busy. */
const GENERATION_MS = 60_000;

interface VoiceList {
  voices: { id: string; type: string; language: string; available: boolean }[];
}

/** An English built-in voice: RHVoice where installed (the clearest), else Pico. */
async function englishPreset(serverUrl: string, apiKey: string): Promise<string> {
  const answer = await fetch(`${serverUrl}/api/voices?type=preset&language=en&limit=500`, { headers: { 'x-api-key': apiKey } });
  assert.equal(answer.status, 200);
  const { voices } = (await answer.json()) as VoiceList;
  const usable = voices.filter((voice) => voice.available);
  const voice = usable.find((candidate) => candidate.id.startsWith('rhvoice:')) ?? usable.find((candidate) => candidate.id === 'pico:en-US') ?? usable[0];
  assert.ok(voice, 'an English preset voice is installed');
  return voice.id;
}

/** Waits until the audio element, which the screen starts itself, has a length and its playback position moves. */
async function waitUntilPlaying(page: Page, selector: string): Promise<number> {
  const handle = await page.waitForFunction(
    (css) => {
      const audio = document.querySelector<HTMLAudioElement>(css);
      if (!audio) return false;
      return Number.isFinite(audio.duration) && audio.duration > 0 && audio.currentTime > 0 ? audio.duration : false;
    },
    selector,
    { timeout: GENERATION_MS, polling: 100 },
  );
  return Number(await handle.jsonValue());
}

/** The screen as a link to the voice opens it (#/speak?voice=…), once the voice list has loaded. */
async function waitForVoice(page: Page, voiceId: string): Promise<void> {
  await page.waitForFunction((id) => document.querySelector<HTMLSelectElement>('#speak-voice')?.value === id, voiceId, { timeout: 15_000 });
}

/** A long text: several seconds of synthesis, sentence by sentence, so there is time to cancel it. */
const LONG_TEXT = Array.from({ length: 60 }, (_, i) => `This is sentence number ${i + 1} of a long reading that will be cancelled.`).join(' ');

describe('Speak screen', () => {
  const studio = useStudio();
  let voiceId = '';
  const speakWith = () => `speak?voice=${encodeURIComponent(voiceId)}`;
  before(async () => {
    voiceId = await englishPreset(studio.server.url, studio.admin.key);
  });

  test('streams an English preset as MP3 while it is generated, plays it, lists it and offers the download', async () => {
    const page = await studio.open(speakWith());
    await waitForVoice(page, voiceId);
    assert.equal(await page.getByLabel('Voice', { exact: true }).inputValue(), voiceId, 'the voice of the link is chosen');
    assert.equal(await page.getByLabel('Format').inputValue(), 'mp3');
    assert.ok(await page.getByLabel('Play while it is generated').isChecked(), 'chromium streams MP3 through Media Source Extensions');

    await page.getByLabel('Text', { exact: true }).fill('Hello from Timbre Studio. This sentence is streamed while it is spoken.');
    await page.getByRole('button', { name: 'Generate' }).click();
    const duration = await waitUntilPlaying(page, 'audio[aria-label="Generated speech"]');
    assert.ok(duration > 1, `the streamed speech lasts ${duration} s`);
    assert.match(
      await page.locator('audio[aria-label="Generated speech"]').getAttribute('src').then(String),
      /^blob:/,
      'played from the stream, not a second request',
    );

    // The row's state is what GET /api/tasks/{id} answered once the stream ended (tts:generate
    // allows 10 requests a minute, so the test does not ask again).
    const row = page.locator('table.speak-recent tbody tr').first();
    await row.locator('[data-status="completed"]').waitFor({ timeout: GENERATION_MS });
    assert.match(String(await row.getAttribute('data-task')), /^task_/);

    const download = page.waitForEvent('download');
    await page
      .getByRole('link', { name: /^Download .*\.mp3$/ })
      .first()
      .click();
    const file = await download;
    // The service names the file after the task's first words (Content-Disposition), which wins over the link's own name.
    assert.match(file.suggestedFilename(), /^Hello from Timbre Studio\. This sentence.* - speech\.mp3$/);
    const saved = await file.path();
    assert.ok((await stat(saved)).size > 4000, 'the downloaded MP3 has the speech');
    await assertAccessible(page, 'Speak with a generated result');
    await studio.shoot(page, 'speak');

    // The list survives a reload: it is kept for the browser session.
    await page.reload();
    await page.locator('table.speak-recent [data-status="completed"]').first().waitFor();
  });

  test('without a voice in the link, the clearest voice of the browser’s language is chosen: RHVoice for English', async () => {
    const page = await studio.open('speak');
    await page.waitForFunction(() => (document.querySelector<HTMLSelectElement>('#speak-voice')?.value ?? '') !== '', undefined, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => navigator.language), 'en-US');
    const chosen = await page.getByLabel('Voice', { exact: true }).inputValue();
    assert.match(chosen, /^rhvoice:/, `${chosen}: not eSpeak, nor any voice less clear than RHVoice`);
    assert.match(await page.getByLabel('Language of the text').inputValue(), /^en/);
    // The voice list is in the service's order, clearest first: the chosen voice heads its language's group.
    const headsItsGroup = await page.evaluate(() => {
      const option = document.querySelector<HTMLSelectElement>('#speak-voice')?.selectedOptions[0];
      return option?.parentElement?.tagName === 'OPTGROUP' && option.parentElement.firstElementChild === option;
    });
    assert.equal(headsItsGroup, true);
  });

  test('shows the service’s message when the text is over the limit', async () => {
    const page = await studio.open(speakWith());
    await waitForVoice(page, voiceId);
    await page.getByLabel('Text', { exact: true }).fill('a'.repeat(5001));
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'The text has 5001 characters; the limit is 5000 (text_too_long)');
    assert.equal(await page.locator('table.speak-recent').count(), 0, 'a refused request makes no task');
  });

  test('on a phone, a WAV generated as a task plays when complete; the page fits the screen', async () => {
    const page = await studio.open(speakWith(), 'phone');
    await waitForVoice(page, voiceId);
    await page.getByLabel('Text', { exact: true }).fill('A WAV file, played once it is stored.');
    await page.getByLabel('Format').selectOption('wav');
    assert.equal(await page.getByLabel('Play while it is generated').isDisabled(), true);
    await page.getByRole('button', { name: 'Generate' }).click();
    const duration = await waitUntilPlaying(page, 'audio[aria-label="Generated speech"]');
    assert.ok(duration > 1, `the stored speech lasts ${duration} s`);
    assert.match(String(await page.locator('audio[aria-label="Generated speech"]').getAttribute('src')), /^\/api\/tasks\/[^/]+\/audio$/);
    await page
      .getByRole('link', { name: /^Download .*\.wav$/ })
      .first()
      .waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no horizontal page overflow at 390 px');
    await assertAccessible(page, 'Speak with a generated result (phone)');
    await studio.shoot(page, 'speak');
  });

  test('plays a long text while it is still being generated, and Cancel stops a stream and a task', async () => {
    const page = await studio.open(speakWith());
    await waitForVoice(page, voiceId);
    await page.getByLabel('Text', { exact: true }).fill(LONG_TEXT);
    await page.getByRole('button', { name: 'Generate' }).click();
    // Playing while the rest is still synthesized: a stream's length is unknown until it ends.
    const lengthWhenStarted = await page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>('audio[aria-label="Generated speech"]');
        return audio && audio.currentTime > 0 ? String(audio.duration) : false;
      },
      undefined,
      { timeout: GENERATION_MS, polling: 50 },
    );
    assert.equal(await lengthWhenStarted.jsonValue(), 'Infinity', 'the audio plays before the generation has ended');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const row = page.locator('table.speak-recent tbody tr').first();
    await row.locator('[data-status="cancelled"]').waitFor({ timeout: 15_000 });
    const task = await page.request.get(`/api/tasks/${await row.getAttribute('data-task')}`);
    assert.equal((await task.json()).status, 'cancelled');
    const generateEnabled = () =>
      page.waitForFunction(() => document.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled === false, undefined, { timeout: 10_000 });
    await generateEnabled();

    // A WAV is generated as a task: Cancel asks the service (POST /api/generation/cancel).
    await page.getByLabel('Format').selectOption('wav');
    await page.getByRole('button', { name: 'Generate' }).click();
    const taskRow = page.locator('table.speak-recent tbody tr').first();
    await taskRow.locator('[data-status="running"]').waitFor({ timeout: GENERATION_MS });
    const cancelled = page.waitForResponse((response) => response.url().endsWith('/api/generation/cancel'));
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await cancelled).status(), 200);
    await taskRow.locator('[data-status="cancelled"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('table.speak-recent [data-status="cancelled"]').count(), 2);
    await generateEnabled();
  });

  test('the text being written survives leaving the screen and a reload, with the service’s limit shown as it grows', async () => {
    const page = await studio.open(speakWith());
    await waitForVoice(page, voiceId);
    const draft = 'A draft that must not be lost when the page is left.';
    await page.getByLabel('Text', { exact: true }).fill(draft);
    await page.getByText(`${draft.length} / 5,000 characters`).waitFor();
    await page.evaluate(() => (location.hash = '#/voices'));
    await page.getByRole('list', { name: 'Voices' }).waitFor();
    await page.evaluate(() => (location.hash = '#/speak'));
    await page.waitForFunction((text) => document.querySelector<HTMLTextAreaElement>('#speak-text')?.value === text, draft, { timeout: 15_000 });
    await page.reload();
    await page.waitForFunction((text) => document.querySelector<HTMLTextAreaElement>('#speak-text')?.value === text, draft, { timeout: 15_000 });
    await page.getByLabel('Text', { exact: true }).fill('a'.repeat(1234));
    await page.getByText('1,234 / 5,000 characters').waitFor();
  });

  test('without a chosen voice, the voice follows the language of the text: German text gets the clearest German voice', async () => {
    const page = await studio.open('speak');
    await page.waitForFunction(() => (document.querySelector<HTMLSelectElement>('#speak-voice')?.value ?? '') !== '', undefined, { timeout: 15_000 });
    const german = await fetch(`${studio.server.url}/api/voices?language=de&limit=500`, { headers: { 'x-api-key': studio.admin.key } });
    const clearest = ((await german.json()) as VoiceList).voices.find((voice) => voice.available && voice.language.startsWith('de'));
    assert.ok(clearest, 'a German voice is installed');
    await page.getByLabel('Text', { exact: true }).fill('Das ist nicht der Text, und ich lese ihn mit der Stimme vor.');
    await page.waitForFunction((id) => document.querySelector<HTMLSelectElement>('#speak-voice')?.value === id, clearest.id, { timeout: 15_000 });
    assert.match(await page.getByLabel('Language of the text').inputValue(), /^de/);
  });

  test('the voice picker finds voices by a word and plays the chosen voice’s sample', async () => {
    const page = await studio.open(speakWith());
    await waitForVoice(page, voiceId);
    const optionCount = () => page.locator('#speak-voice option').count();
    const before = await optionCount();
    await page.getByLabel('Find a voice').fill('british');
    await page.getByRole('status').filter({ hasText: 'match “british”' }).waitFor();
    const britishIds = await page.locator('#speak-voice option').evaluateAll((options) => options.map((option) => option.getAttribute('value') ?? ''));
    assert.ok(britishIds.length < before, `${britishIds.length} of ${before} voices shown`);
    const britishListed = await fetch(`${studio.server.url}/api/voices?q=british&limit=500`, { headers: { 'x-api-key': studio.admin.key } });
    const british = new Set(((await britishListed.json()) as VoiceList).voices.map((voice) => voice.id));
    assert.ok(
      britishIds.every((id) => id === voiceId || british.has(id)),
      'only British voices (and the chosen one)',
    );
    assert.ok(britishIds.includes('pico:en-GB'));

    await page.getByLabel('Voice', { exact: true }).selectOption('pico:en-GB');
    const sample = page.waitForResponse((response) => response.url().endsWith('/api/voices/pico%3Aen-GB/preview'), { timeout: GENERATION_MS });
    await page.getByRole('button', { name: 'Hear this voice' }).click();
    assert.equal((await sample).status(), 200);
    const duration = await waitUntilPlaying(page, 'audio[aria-label="Sample of the voice"]');
    assert.ok(duration > 1, `the sample lasts ${duration} s`);
  });
});
