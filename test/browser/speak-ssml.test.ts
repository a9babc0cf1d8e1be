import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertAccessible, useStudio } from './studio.js';

/** Synthesis is real; a built-in voice answers in seconds, but the machine may be busy. */
const GENERATION_MS = 60_000;

/** The clearest English built-in voice: RHVoice, which the read-along is measured with. */
async function rhvoiceEnglish(serverUrl: string, apiKey: string): Promise<string> {
  const answer = await fetch(`${serverUrl}/api/voices?type=preset&language=en&sort=quality&limit=500`, { headers: { 'x-api-key': apiKey } });
  assert.equal(answer.status, 200);
  const { voices } = (await answer.json()) as { voices: { id: string; available: boolean }[] };
  const voice = voices.find((candidate) => candidate.available && candidate.id.startsWith('rhvoice:'));
  assert.ok(voice, 'an English RHVoice voice is installed');
  return voice.id;
}

async function openWith(page: Page, voiceId: string): Promise<void> {
  await page.waitForFunction((id) => document.querySelector<HTMLSelectElement>('#speak-voice')?.value === id, voiceId, { timeout: 15_000 });
}

/** Selects characters `start`–`end` of the text box, as a person dragging over them would. */
async function select(page: Page, start: number, end: number): Promise<void> {
  await page.locator('#speak-text').evaluate((box: HTMLTextAreaElement, [from, to]) => box.setSelectionRange(from ?? 0, to ?? 0), [start, end]);
}

/** The index of the word the read-along marks as being spoken; -1 when none. */
const spokenWord = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll('.read-along-word')).findIndex((word) => word.getAttribute('aria-current') === 'true'));

const TEXT = 'Hello from Timbre Studio. Every word of this sentence is marked while it is spoken, one after another, until the very end.';

describe('Speak screen: read-along and SSML markup', () => {
  const studio = useStudio();
  let voiceId = '';
  before(async () => {
    voiceId = await rhvoiceEnglish(studio.server.url, studio.admin.key);
  });

  test('while the speech plays, the word being spoken is marked and the mark moves; choosing a word plays from it', async () => {
    const page = await studio.open(`speak?voice=${encodeURIComponent(voiceId)}`);
    await openWith(page, voiceId);
    await page.getByLabel('Text', { exact: true }).fill(TEXT);
    await page.getByRole('button', { name: 'Generate' }).click();
    const readAlong = page.getByRole('region', { name: 'Read-along' });
    await readAlong.waitFor({ timeout: GENERATION_MS });
    const words = await readAlong.locator('.read-along-word').allTextContents();
    assert.ok(words.length >= 15, `the read-along shows the spoken words: ${words.join(' ')}`);
    assert.equal(words[0]?.replace(/\W/g, '').toLowerCase(), 'hello');

    // Press play from the start, as a person would once the result is there.
    const audio = page.locator('audio[aria-label="Generated speech"]');
    await audio.evaluate((element: HTMLAudioElement) => {
      element.currentTime = 0;
      return element.play();
    });
    await page.waitForFunction(() => document.querySelector('.read-along-word[aria-current="true"]') !== null, undefined, { timeout: 15_000 });
    const first = await spokenWord(page);
    await page.waitForFunction((seen) => {
      const index = Array.from(document.querySelectorAll('.read-along-word')).findIndex((word) => word.getAttribute('aria-current') === 'true');
      return index > seen;
    }, first);
    assert.ok((await spokenWord(page)) > first, 'the mark moved on to a later word');

    // The mark is not colour alone: the spoken word is underlined. Paused, so the mark stays where it is read.
    await audio.evaluate((element: HTMLAudioElement) => element.pause());
    const underline = await page.evaluate(() => {
      const marked = document.querySelector('.read-along-word[aria-current="true"]');
      return marked ? getComputedStyle(marked).textDecorationLine : 'no word marked';
    });
    assert.match(underline, /underline/);
    await assertAccessible(page, 'Speak with a word of the read-along marked');

    // Choosing a late word plays from its start.
    const last = words.length - 3;
    await readAlong.locator('.read-along-word').nth(last).click();
    await page.waitForFunction((index) => {
      const marked = Array.from(document.querySelectorAll('.read-along-word')).findIndex((word) => word.getAttribute('aria-current') === 'true');
      return marked >= index;
    }, last);
    await studio.shoot(page, 'speak-read-along');
  });

  test('the toolbar marks up the selection as SSML, escaping the text, and the marked-up text is spoken', async () => {
    const page = await studio.open(`speak?voice=${encodeURIComponent(voiceId)}`);
    await openWith(page, voiceId);
    const box = page.getByLabel('Text', { exact: true });
    const plain = 'Tom & Jerry <3 NASA. Then a pause here.';
    await box.fill(plain);

    await select(page, plain.indexOf('NASA'), plain.indexOf('NASA') + 4);
    await page.getByRole('button', { name: 'Substitute…' }).click();
    await page.getByLabel('Spoken as').fill('National Aeronautics and Space Administration');
    await page.getByRole('button', { name: 'Insert substitute' }).click();
    const withSub = '<speak>Tom &amp; Jerry &lt;3 <sub alias="National Aeronautics and Space Administration">NASA</sub>. Then a pause here.</speak>';
    assert.equal(await box.inputValue(), withSub, 'wrapped in <speak>, the plain text escaped, NASA substituted');
    assert.deepEqual(
      await box.evaluate((element: HTMLTextAreaElement) => [
        element.value.slice(element.selectionStart, element.selectionEnd),
        document.activeElement === element,
      ]),
      ['NASA', true],
      'the substituted word stays selected in the focused text box',
    );

    const afterThen = withSub.indexOf('Then') + 'Then'.length;
    await select(page, afterThen, afterThen);
    await page.getByLabel('Pause length').selectOption('1s');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const withBreak = withSub.replace('Then a', 'Then<break time="1s"/> a');
    assert.equal(await box.inputValue(), withBreak);

    // An attribute value keeps its quotes and ampersands as entities.
    await select(page, withBreak.indexOf('here'), withBreak.indexOf('here') + 4);
    await page.getByRole('button', { name: 'Substitute…' }).click();
    await page.getByLabel('Spoken as').fill('"there" & back');
    await page.getByRole('button', { name: 'Insert substitute' }).click();
    assert.match(await box.inputValue(), /<sub alias="&quot;there&quot; &amp; back">here<\/sub>\.<\/speak>$/);
    await assertAccessible(page, 'Speak with the SSML toolbar');

    const generated = page.waitForResponse((response) => response.url().includes('/api/generate/preset'), { timeout: GENERATION_MS });
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.equal((await generated).status(), 200);
    await page.locator('table.speak-recent [data-status="completed"]').first().waitFor({ timeout: GENERATION_MS });
    // The read-along fills once the task's words are read: the alias is what was spoken.
    const readAlong = page.getByRole('region', { name: 'Read-along' });
    await readAlong.locator('.read-along-word', { hasText: 'Aeronautics' }).first().waitFor({ timeout: GENERATION_MS });
    assert.ok(!(await readAlong.locator('.read-along-word').allTextContents()).includes('NASA'), 'the written word is not what was spoken');
  });

  test('SSML the service refuses shows its message with the line and column', async () => {
    const page = await studio.open(`speak?voice=${encodeURIComponent(voiceId)}`);
    await openWith(page, voiceId);
    await page.getByLabel('Text', { exact: true }).fill('<speak>\n  Hello <emphasis>there.\n</speak>');
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: GENERATION_MS });
    assert.match(String(await alert.textContent()), /invalid_ssml.*line \d+, column \d+/);
  });
});
