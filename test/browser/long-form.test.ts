import { readFile } from 'node:fs/promises';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { components } from '../../src/client/schema.js';
import { assertAccessible, audioDuration, chunksDone, SYNTHESIS_MS, useStudio } from './studio.js';

type Task = components['schemas']['Task'];
type Voice = components['schemas']['Voice'];

const NEW_TEXT = 'Every word of this line was written again.';
/** The two-voice task's name on screen: the first words of its text. */
const TITLE = '“Welcome back to the studio. Today we try…”';

describe('long-form screen', () => {
  const studio = useStudio();
  let voices: Voice[] = [];

  const apiGet = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${studio.server.url}${path}`, { headers: { 'X-API-Key': studio.admin.key } });
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as T;
  };

  before(async () => {
    const list = await apiGet<{ voices: Voice[] }>('/api/voices?language=en&type=preset&limit=500');
    voices = list.voices.filter((voice) => voice.available && ['rhvoice', 'flite', 'pico'].includes(voice.engine));
  });

  test('a two-voice script: sentences finish, one is retaken with new text, the merge plays', { timeout: 300_000 }, async () => {
    const [ada, ben] = voices;
    assert.ok(ada && ben, `two English built-in voices (rhvoice, flite or pico) are installed; found ${voices.map((voice) => voice.id).join(', ')}`);
    const page = await studio.open('long-form', 'desktop');

    await page.getByLabel('Script').fill('Ada: Welcome back to the studio. Today we try two voices.\nBen: Thank you, Ada. It is good to be here.');
    await page.getByLabel('Voice for Ada').selectOption(ada.id);
    await page.getByLabel('Voice for Ben').selectOption(ben.id);
    await page.getByText('Each speaker is read by the voice chosen for them.').waitFor();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();

    // The open task is named in the address, and the timeline is one link away.
    await page.waitForFunction(() => /^#\/long-form\?task=task_/.test(location.hash));
    const taskId = new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('task')!;
    assert.equal(await page.getByRole('link', { name: 'Open in timeline' }).getAttribute('href'), `#/timeline?task=${taskId}`);

    await chunksDone(page, 4);
    // The task is named by its first words and when it was made; its id is only for developers.
    const title = page.getByRole('heading', { name: TITLE });
    await title.waitFor();
    await page.getByText(/^Made (now|\d+ (seconds?|minutes?) ago)/).waitFor();
    assert.equal(await page.getByText(taskId).filter({ visible: true }).count(), 0, 'the task id is folded away');
    const taskPanel = page.getByRole('region', { name: TITLE });
    await taskPanel.getByText('For developers').click();
    await taskPanel.getByText(taskId, { exact: true }).waitFor();
    await page.getByText('4 of 4 sentences ready').waitFor();
    await page.getByRole('listitem', { name: 'Sentence 1' }).getByText(ada.name).waitFor();
    await page.getByRole('listitem', { name: 'Sentence 3' }).getByText(ben.name).waitFor();
    // Each sentence plays on its own (its audio loads only when asked: preload none).
    await page.getByLabel('Audio of sentence 1').evaluate((audio: HTMLAudioElement) => audio.load());
    assert.ok((await audioDuration(page, 'Audio of sentence 1')) > 0);

    // A new take of sentence 2 with new text: record every state its row shows on the way.
    const second = page.getByRole('listitem', { name: 'Sentence 2' });
    await second.evaluate((row: HTMLElement) => {
      const seen: string[] = [];
      Object.assign(window, { chunkTwoStates: seen });
      new MutationObserver((records) => {
        for (const record of records) seen.push(record.oldValue ?? '');
        seen.push(row.dataset.state ?? '');
      }).observe(row, { attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
    });
    await second.getByText('Regenerate sentence 2…').click();
    await second.getByLabel('Text of sentence 2').fill(NEW_TEXT);
    await second.getByRole('button', { name: 'Regenerate sentence 2', exact: true }).click();
    await page.waitForFunction(
      () => {
        const row = document.querySelector<HTMLElement>('li[aria-label="Sentence 2"]');
        const take = row?.querySelector('select');
        return row?.dataset.state === 'completed' && take?.value === '2';
      },
      undefined,
      { timeout: SYNTHESIS_MS },
    );
    const states: unknown = await page.evaluate(() => Reflect.get(window, 'chunkTwoStates'));
    assert.ok(Array.isArray(states));
    assert.ok(states.indexOf('running') >= 0 && states.lastIndexOf('completed') > states.indexOf('running'), `states seen: ${states.join(' > ')}`);
    await second.getByText(NEW_TEXT, { exact: true }).waitFor();
    const takes = await second.getByLabel('Take of sentence 2', { exact: true }).locator('option').allTextContents();
    assert.equal(takes.length, 2, takes.join(' | '));
    assert.match(takes[0]!, /^Take 1 · done/);
    assert.match(takes[1]!, /^Take 2 · done/);

    // The service holds the new text as the selected take, the old take beside it, two voices in all.
    const task = await apiGet<Task>(`/api/tasks/${taskId}`);
    const chunk = task.chunks?.[1];
    assert.equal(chunk?.text, NEW_TEXT);
    assert.equal(chunk?.selected_take, 2);
    assert.deepEqual(
      chunk?.takes.map((take) => take.text),
      ['Today we try two voices.', NEW_TEXT],
    );
    assert.deepEqual([...new Set(task.chunks?.map((each) => each.voice_id))], [ada.id, ben.id]);

    // Merge with its defaults; the merged file plays and downloads with its subtitles.
    await page.getByRole('button', { name: 'Merge into one file' }).click();
    const merged = await audioDuration(page, 'Merged audio');
    assert.ok(merged > 0, `merged duration ${merged}`);
    const subtitles = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download subtitles (SRT)' }).click();
    const srt = await readFile(await (await subtitles).path(), 'utf8');
    assert.match(srt, /-->/);
    assert.ok(srt.includes(NEW_TEXT), srt);
    const audio = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download merged audio' }).click();
    const wav = await readFile(await (await audio).path());
    assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');

    // Play all: the sentences follow one another in one player.
    await page.getByRole('button', { name: 'Play all' }).click();
    await page.getByText('Playing sentence 2 (2 of 4)').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await assertAccessible(page, 'Long-form with a generated, retaken and merged text');

    await title.evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await studio.shoot(page, 'long-form');

    // Reopened from its address on a phone: the chunks, the takes and the merged file are there.
    const phone = await studio.open(`long-form?task=${taskId}`, 'phone');
    await chunksDone(phone, 4);
    assert.ok((await audioDuration(phone, 'Merged audio')) > 0);
    assert.equal(await phone.getByLabel('Take of sentence 2', { exact: true }).inputValue(), '2');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
    await assertAccessible(phone, 'Long-form reopened (phone)');
    await phone.getByRole('heading', { name: TITLE }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await studio.shoot(phone, 'long-form');
  });

  test('prose in two languages goes to the multilang route, a preset speaking the other language', { timeout: 120_000 }, async () => {
    const english = voices.find((voice) => voice.id === 'pico:en-US') ?? voices[0];
    assert.ok(english);
    const page = await studio.open('long-form', 'desktop');
    await page.getByLabel('Script').fill('Good morning to everyone here today. Guten Morgen, wie geht es euch allen heute?');
    await page.getByLabel('Voice', { exact: true }).selectOption(english.id);
    await page.getByText('One voice reads the whole text in one language.').waitFor();
    await page.getByLabel('Several languages: detect each sentence’s language').check();
    await page.getByLabel('Languages to choose from (optional)').fill('en, de');
    await page.getByText('each sentence is read in the language it is written in', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await chunksDone(page, 2);
    const german = page.getByRole('listitem', { name: 'Sentence 2' });
    await german.getByText(/^de/).waitFor();
    // A stand-in preset speaks German for the English voice, said in words rather than as the route.
    const standIn = await german.getByText(/^Spoken by /).innerText();
    assert.match(standIn, /^Spoken by .+ \(the chosen voice does not speak de(-\w+)?\)$/);
    assert.ok(!standIn.includes('preset:'), standIn);
    assert.equal(
      await page
        .getByRole('listitem', { name: 'Sentence 1' })
        .getByText(/^Spoken by /)
        .count(),
      0,
      'the English sentence is the voice’s own',
    );
    assert.ok((await page.getByRole('listitem', { name: 'Sentence 1' }).getByText(/^en/).count()) > 0);
  });
});
