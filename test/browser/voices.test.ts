import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { useStudio } from './studio.js';

/** Previews and designs are real engine work; the machine may be busy. */
const ENGINE_MS = 90_000;

interface VoiceRecord {
  id: string;
  name: string;
  type: string;
  engine: string;
  favorite: boolean;
  tags: string[];
  preview_url: string | null;
}

/** The ids of the voice cards on the page, in order. */
function shownIds(page: Page): Promise<string[]> {
  return page.locator('ul[aria-label="Voices"] > li').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-voice-id') ?? ''));
}

/** Waits until the cards shown are exactly `expected` (in any order). */
async function waitForShown(page: Page, expected: string[]): Promise<void> {
  const wanted = [...expected].sort();
  await page.waitForFunction(
    (ids) => {
      const cards = [...document.querySelectorAll('ul[aria-label="Voices"] > li')].map((card) => card.getAttribute('data-voice-id') ?? '');
      return JSON.stringify(cards.sort()) === JSON.stringify(ids);
    },
    wanted,
    { timeout: 15_000 },
  );
}

describe('Voices screen', () => {
  const studio = useStudio();

  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${studio.server.url}${path}`, {
      ...init,
      headers: { 'X-API-Key': studio.admin.key, 'Content-Type': 'application/json', ...init.headers },
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  }
  const voice = (id: string) => call<VoiceRecord>(`/api/voices/${encodeURIComponent(id)}`);
  const listed = async (query: string) => (await call<{ voices: VoiceRecord[] }>(`/api/voices?limit=500&${query}`)).voices;

  test(
    'lists the presets clearest first, filters by engine, searches, toggles a favorite and plays a sample at once (desktop)',
    { timeout: 180_000 },
    async () => {
      const page = await studio.open('voices', 'desktop');
      const all = await listed('');
      const pico = all.find((each) => each.id === 'pico:en-US');
      const rhvoice = all.find((each) => each.engine === 'rhvoice');
      assert.ok(pico && rhvoice, 'Pico and RHVoice are installed');

      await page
        .getByRole('status')
        .filter({ hasText: `${all.length} of ${all.length} voices` })
        .waitFor();
      await page.getByRole('listitem', { name: pico.name, exact: true }).waitFor();
      await page.getByRole('listitem', { name: rhvoice.name, exact: true }).waitFor();
      assert.equal((await shownIds(page)).length, all.length, 'every voice is listed');
      assert.match((await shownIds(page))[0] ?? '', /^rhvoice:/, 'the clearest voices come first, not eSpeak NG');
      const speakLink = page.getByRole('listitem', { name: pico.name, exact: true }).getByRole('link', { name: 'Speak with this voice' });
      assert.equal(await speakLink.getAttribute('href'), '#/speak?voice=pico%3Aen-US');

      // The engine filter narrows the list to that engine's voices.
      await page.getByLabel('Engine', { exact: true }).selectOption('pico');
      await waitForShown(
        page,
        all.filter((each) => each.engine === 'pico').map((each) => each.id),
      );
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await waitForShown(
        page,
        all.map((each) => each.id),
      );

      // The search box asks the service; the cards are what it answers.
      await page.getByLabel('Search', { exact: true }).fill(rhvoice.name);
      const found = await listed(`q=${encodeURIComponent(rhvoice.name)}`);
      assert.ok(found.some((each) => each.id === rhvoice.id) && found.length < all.length);
      await waitForShown(
        page,
        found.map((each) => each.id),
      );
      await page.getByLabel('Search', { exact: true }).fill('');
      await waitForShown(
        page,
        all.map((each) => each.id),
      );

      // A favorite is stored by the service, and the favorites filter shows it alone.
      const picoCard = page.getByRole('listitem', { name: pico.name, exact: true });
      const star = picoCard.getByRole('button', { name: `Favorite ${pico.name}` });
      assert.equal(await star.getAttribute('aria-pressed'), 'false');
      await star.click();
      await page.waitForFunction((name) => document.querySelector(`button[aria-label="Favorite ${name}"]`)?.getAttribute('aria-pressed') === 'true', pico.name);
      assert.equal((await voice(pico.id)).favorite, true, 'the API shows the favorite');
      await page.getByLabel('Favorites only').check();
      await waitForShown(page, [pico.id]);
      await page.getByLabel('Favorites only').uncheck();
      await waitForShown(
        page,
        all.map((each) => each.id),
      );

      // Every voice plays a sample at once: the first request makes it (no "Make preview" step), and it is stored.
      assert.equal((await voice(pico.id)).preview_url, null, 'no sample made yet');
      assert.equal(await picoCard.getByRole('button', { name: `Make preview of ${pico.name}` }).count(), 0);
      const sampleAnswer = page.waitForResponse((response) => response.url().endsWith(`/api/voices/${encodeURIComponent(pico.id)}/preview`), {
        timeout: ENGINE_MS,
      });
      await picoCard.getByRole('button', { name: `Play a sample of ${pico.name}` }).click();
      assert.equal((await sampleAnswer).status(), 200);
      const played = await page.waitForFunction(
        (name) => {
          const audio = document.querySelector<HTMLAudioElement>(`audio[aria-label="Sample of ${name}"]`);
          return audio && Number.isFinite(audio.duration) && audio.duration > 0 && audio.currentTime > 0 ? audio.duration : false;
        },
        pico.name,
        { timeout: ENGINE_MS, polling: 100 },
      );
      assert.ok(Number(await played.jsonValue()) > 1, 'the sample has a length and plays');
      assert.ok((await voice(pico.id)).preview_url, 'the sample is stored as the voice’s preview');
      // The library's own tags show beside the person's: Pico US English is an American, classic voice.
      await picoCard
        .getByRole('list', { name: `Category and tags of ${pico.name}` })
        .getByText('american')
        .waitFor();
      await page.getByLabel('Engine', { exact: true }).selectOption('pico');
      await waitForShown(
        page,
        all.filter((each) => each.engine === 'pico').map((each) => each.id),
      );
      await page.evaluate('window.scrollTo(0, 0)');
      await studio.shoot(page, 'voices');
      await page.getByRole('button', { name: 'Clear filters' }).click();

      // Un-favoriting goes through the API too.
      await star.click();
      await page.waitForFunction(
        (name) => document.querySelector(`button[aria-label="Favorite ${name}"]`)?.getAttribute('aria-pressed') === 'false',
        pico.name,
      );
      assert.equal((await voice(pico.id)).favorite, false);

      // A preset's tags are the person's: edited in its details and stored.
      const rhvoiceCard = page.getByRole('listitem', { name: rhvoice.name, exact: true });
      await rhvoiceCard.getByRole('button', { name: `Details of ${rhvoice.name}` }).click();
      await rhvoiceCard.getByLabel('Tags (separated by commas)').fill('clear, narrator');
      await rhvoiceCard.getByRole('button', { name: 'Save changes' }).click();
      await rhvoiceCard.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      assert.deepEqual((await voice(rhvoice.id)).tags, ['clear', 'narrator']);
      await rhvoiceCard
        .getByRole('list', { name: `Category and tags of ${rhvoice.name}` })
        .getByText('narrator')
        .waitFor();
    },
  );

  test('exports a design to an archive, imports it under a new id and deletes it after confirming', { timeout: 180_000 }, async () => {
    const designed = await call<{ voice_id: string }>('/api/design/create', {
      method: 'POST',
      body: JSON.stringify({ name: 'Archive test voice', description: 'a bright young female voice' }),
    });
    const page = await studio.open('voices', 'desktop');
    await page.getByRole('listitem', { name: 'Archive test voice', exact: true }).waitFor();

    await page.getByText('Import or export voices').click();
    await page.getByRole('checkbox', { name: /Archive test voice/ }).check();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download archive (1)' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), 'timbre-voices.zip');
    const archivePath = await download.path();
    const archive = await readFile(archivePath);
    assert.equal(archive.subarray(0, 2).toString(), 'PK', 'a zip archive');

    // The same archive again: the preview says the voice is already here; renaming imports a copy.
    await page.getByLabel('Voice archive (.zip)').setInputFiles(archivePath);
    const inArchive = page.getByRole('list', { name: 'Voices in the archive' });
    await inArchive.getByText('already here').waitFor();
    await page.getByLabel('Voices already here').selectOption('rename');
    await page.getByRole('button', { name: 'Import 1 voice' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 1 voice.' }).waitFor();
    const copies = (await listed('type=design')).filter((each) => each.name === 'Archive test voice');
    assert.equal(copies.length, 2, 'the archive made a second voice');
    const copy = copies.find((each) => each.id !== designed.voice_id);
    assert.ok(copy);
    await page.locator(`li[data-voice-id="${copy.id}"]`).waitFor();

    // Deleting asks first; keeping it changes nothing.
    const copyCard = page.locator(`li[data-voice-id="${copy.id}"]`);
    await copyCard.getByRole('button', { name: 'Details of Archive test voice' }).click();
    await copyCard.getByRole('button', { name: 'Delete Archive test voice' }).click();
    await copyCard.getByRole('button', { name: 'Keep it' }).click();
    assert.equal((await voice(copy.id)).id, copy.id);
    await copyCard.getByRole('button', { name: 'Delete Archive test voice' }).click();
    await copyCard.getByRole('button', { name: 'Delete for good' }).click();
    await copyCard.waitFor({ state: 'detached' });
    const gone = await fetch(`${studio.server.url}/api/voices/${copy.id}`, { headers: { 'X-API-Key': studio.admin.key } });
    assert.equal(gone.status, 404);
  });

  test('fits a phone', { timeout: 60_000 }, async () => {
    const page = await studio.open('voices', 'phone');
    const all = await listed('');
    await page
      .getByRole('status')
      .filter({ hasText: `${all.length} of ${all.length} voices` })
      .waitFor();
    const first = all.find((each) => each.id === 'pico:en-US') ?? all[0];
    assert.ok(first);
    await page.getByRole('button', { name: `Details of ${first.name}` }).click();
    await page.getByRole('form', { name: `Edit ${first.name}` }).waitFor();
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await page.evaluate('window.scrollTo(0, 0)');
    await studio.shoot(page, 'voices');
  });
});
