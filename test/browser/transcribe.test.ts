import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { useStudio } from './studio.js';
import { REFERENCE_AUDIO } from '../helpers/paths.js';

const JFK = `${REFERENCE_AUDIO}/jfk.wav`;
/** Recognition is real (Whisper, Moonshine or PocketSphinx, whichever is installed). */
const TRANSCRIPTION_MS = 120_000;

/** Uploads jfk.wav and waits for its transcript; answers whether the job's progress bar was shown meanwhile. */
async function transcribeJfk(page: Page): Promise<boolean> {
  await page.getByLabel('Audio file').setInputFiles(JFK);
  await page.getByLabel('Language (detected when empty)').fill('en');
  // The bar may come and go between two polls, so an observer notes that it appeared.
  await page.evaluate(() => {
    const seen = document.documentElement;
    new MutationObserver((_, observer) => {
      if (!document.querySelector('progress[aria-label="Transcription progress"]')) return;
      seen.dataset.progressSeen = 'yes';
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Transcribe' }).click();
  await page.locator('.transcript').waitFor({ timeout: TRANSCRIPTION_MS });
  return (await page.evaluate(() => document.documentElement.dataset.progressSeen)) === 'yes';
}

async function downloaded(page: Page, name: RegExp): Promise<{ fileName: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await download;
  return { fileName: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

describe('Transcribe screen', () => {
  const studio = useStudio();

  test('transcribes an uploaded recording, offers text, SRT and VTT, and marks the spoken word while it plays', async () => {
    await access(JFK);
    const page = await studio.open('transcribe');
    assert.ok(await transcribeJfk(page), 'the transcription job’s progress was shown');
    const transcript = String(await page.locator('.transcript').textContent());
    assert.match(transcript, /country/i, `the transcript of jfk.wav: ${transcript}`);

    const srt = await downloaded(page, /^Download SRT/);
    assert.equal(srt.fileName, 'jfk.srt');
    assert.match(srt.text, /^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n\S/);
    assert.match(srt.text, /country/i);
    const vtt = await downloaded(page, /^Download VTT/);
    assert.equal(vtt.fileName, 'jfk.vtt');
    assert.match(vtt.text, /^WEBVTT\n\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n\S/);
    const text = await downloaded(page, /^Download Text/);
    assert.equal(text.fileName, 'jfk.txt');
    assert.match(text.text, /country/i);

    // Playing the upload marks the word being spoken: "country" is said about 6 s in.
    const playPause = page.getByRole('button', { name: 'Play or pause jfk.wav' });
    await playPause.click();
    await page.locator('.transcript .word.current', { hasText: /country/i }).waitFor({ timeout: 20_000 });
    await playPause.click();
    await studio.shoot(page, 'transcribe');

    // A click on a word moves the audio to it: the first word is then the one marked.
    const words = page.locator('.transcript button.word');
    const first = String(await words.first().textContent());
    await words.first().click();
    await page.locator('.transcript .word.current', { hasText: first }).waitFor({ timeout: 10_000 });
  });

  test('a corrected transcript is what the downloads hold, and the unchanged words keep their times', async () => {
    const page = await studio.open('transcribe');
    await transcribeJfk(page);
    await page.getByRole('button', { name: 'Correct the text' }).click();
    for (const field of await page.locator('.transcript textarea').all()) {
      const before = await field.inputValue();
      if (/country/i.test(before)) await field.fill(before.replace(/country/gi, 'homeland'));
    }
    await page.getByRole('button', { name: 'Done correcting' }).click();
    const timedWords = await page.locator('.transcript button.word').allTextContents();
    assert.ok(!timedWords.some((word) => /homeland/i.test(word)), 'the changed word has no recognized time');
    assert.ok(timedWords.length > 5, `the unchanged words can still be clicked: ${timedWords.join(' ')}`);
    await page
      .locator('.transcript span', { hasText: /^homeland/ })
      .first()
      .waitFor();

    for (const name of [/^Download Text/, /^Download SRT/, /^Download VTT/]) {
      const file = await downloaded(page, name);
      assert.match(file.text, /homeland/, `${file.fileName} holds the correction`);
      assert.doesNotMatch(file.text, /country/i, `${file.fileName} no longer holds the recognized word`);
    }
  });

  test('words the recognizer was unsure of are underlined with dots, say so to screen readers, and a legend explains the mark', async () => {
    const page = await studio.open('transcribe');
    await transcribeJfk(page);
    const recognizer = await page.locator('.transcribe-result .for-developers code').first().textContent();
    const legend = page.locator('.transcript-legend');
    const unsure = page.locator('.transcript button.word.unsure');
    if (recognizer !== 'pocketsphinx') {
      // Whisper and Moonshine give no word probabilities here: nothing to mark, nothing to explain.
      assert.equal(await legend.count(), 0);
      assert.equal(await unsure.count(), 0);
      return;
    }
    // PocketSphinx's posteriors on jfk.wav run from under 1 % to 98 %: some words fall under the threshold, some not.
    const threshold = Number(/less than (\d+) % sure/.exec(String(await legend.textContent()))?.[1]);
    assert.ok(threshold > 0 && threshold < 100, `the legend names the threshold: ${await legend.textContent()}`);
    assert.ok((await unsure.count()) > 0, 'some words are marked');
    for (const word of await unsure.all()) {
      const percent = Number(/^The recognizer was unsure of this word \((\d+) %\)$/.exec(String(await word.getAttribute('title')))?.[1]);
      assert.ok(percent < threshold, `a marked word is under the threshold: ${await word.getAttribute('title')}`);
      assert.match(String(await word.getAttribute('class')), /unsure/);
      assert.equal(await word.evaluate((element) => getComputedStyle(element).textDecorationStyle), 'dotted');
    }
    const named = page.locator('.transcript').getByRole('button', { name: /\(unsure, \d+ %\)$/ });
    assert.equal(await named.count(), await unsure.count(), 'a screen reader hears that each marked word is unsure');
    const sure = page.locator('.transcript button.word:not(.unsure)');
    assert.ok((await sure.count()) > 0, 'not every word is marked');
    assert.equal(await sure.first().getAttribute('title'), null);
  });

  test('on a phone, the transcript fits the screen', async () => {
    const page = await studio.open('transcribe', 'phone');
    await transcribeJfk(page);
    assert.match(String(await page.locator('.transcript').textContent()), /country/i);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no horizontal page overflow at 390 px');
    await studio.shoot(page, 'transcribe');
  });
});
