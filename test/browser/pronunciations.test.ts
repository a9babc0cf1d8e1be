import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { components } from '../../src/client/schema.js';
import { assertAccessible, useStudio } from './studio.js';

type Dictionary = components['schemas']['PronunciationDictionary'];

/** A preview is real synthesis; a built-in voice answers in seconds, but the machine may be busy. */
const GENERATION_MS = 60_000;

const ALIAS = 'National Aeronautics and Space Administration';

/** The id of the dictionary the page shows (`#/pronunciations?dictionary=…`). */
async function shownId(page: Page): Promise<string> {
  await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1]).has('dictionary'));
  return page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('dictionary') ?? '');
}

async function createWithRule(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name of the new dictionary').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  const id = await shownId(page);
  const editor = page.getByRole('form', { name: 'Dictionary' });
  await editor.getByLabel('Name', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByLabel('Written, rule 1').fill('NASA');
  await page.getByLabel('Spoken as, rule 1').fill(ALIAS);
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByLabel('Written, rule 2').fill('tomato');
  await page.getByLabel('Say it by, rule 2').selectOption('phonemes');
  await page.getByLabel('Phonemes, rule 2').fill('təˈmɑːtoʊ');
  await page.getByLabel('Match case, rule 2').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor();
  return id;
}

describe('Pronunciations screen', () => {
  const studio = useStudio();
  const read = async (id: string): Promise<Dictionary> => {
    const answer = await fetch(`${studio.server.url}/api/pronunciations/${id}`, { headers: { 'x-api-key': studio.admin.key } });
    assert.equal(answer.status, 200);
    return (await answer.json()) as Dictionary;
  };

  test('a dictionary made with two rules is kept: after a reload its rules are in the table', async () => {
    const page = await studio.open('pronunciations');
    const id = await createWithRule(page, 'Space words');
    await page.reload();
    await page.getByRole('link', { name: 'Space words' }).waitFor();
    assert.equal(await page.getByLabel('Written, rule 1').inputValue(), 'NASA');
    assert.equal(await page.getByLabel('Spoken as, rule 1').inputValue(), ALIAS);
    assert.equal(await page.getByLabel('Phonemes, rule 2').inputValue(), 'təˈmɑːtoʊ');
    assert.equal(await page.getByLabel('Match case, rule 2').isChecked(), true);
    assert.deepEqual((await read(id)).rules, [
      { grapheme: 'NASA', case_sensitive: false, whole_word: true, alias: ALIAS },
      { grapheme: 'tomato', case_sensitive: true, whole_word: true, phonemes: 'təˈmɑːtoʊ', alphabet: 'ipa' },
    ]);
    await assertAccessible(page, 'Pronunciations with a dictionary open');
    await studio.shoot(page, 'pronunciations');
  });

  test('exported as PLS and imported again, a dictionary has the same rules', async () => {
    const page = await studio.open('pronunciations');
    const id = await createWithRule(page, 'Round trip');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export .pls' }).click();
    const file = await (await download).path();

    await page.getByLabel('PLS file (.pls)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.waitForFunction((exported) => !location.hash.includes(exported), id);
    const imported = await shownId(page);
    await page.getByLabel('Written, rule 1').waitFor();
    assert.deepEqual((await read(imported)).rules, (await read(id)).rules);
  });

  test('each rule plays before and after: plain, through the saved dictionary, and as SSML while edited', async () => {
    const page = await studio.open('pronunciations');
    const id = await createWithRule(page, 'Previews');
    const voice = page.getByLabel('Voice for the previews');
    await page.waitForFunction(() => {
      const label = Array.from(document.querySelectorAll('label')).find((candidate) => candidate.textContent === 'Voice for the previews');
      const select = label && document.getElementById(label.htmlFor);
      return select instanceof HTMLSelectElement && select.value !== '';
    });
    assert.match(await voice.inputValue(), /^rhvoice:/, 'the clearest English voice speaks the previews');

    const preview = async (which: 'before' | 'after') => {
      const request = page.waitForResponse((response) => response.url().includes('/api/generate/'), { timeout: GENERATION_MS });
      await page.getByRole('button', { name: `Play ${which}, rule 1` }).click();
      const answer = await request;
      assert.equal(answer.status(), 200);
      await page.locator(`audio[aria-label="Preview: NASA, ${which}"]`).waitFor();
      assert.match(String(await page.locator(`audio[aria-label="Preview: NASA, ${which}"]`).getAttribute('src')), /^blob:/);
      return answer.request().postDataJSON() as { text: string; pronunciation_ids?: string[] };
    };
    assert.deepEqual((await preview('before')).pronunciation_ids, undefined);
    const saved = await preview('after');
    assert.deepEqual([saved.text, saved.pronunciation_ids], ['NASA', [id]]);

    await page.getByLabel('Spoken as, rule 1').fill('N. A. S. A.');
    const edited = await preview('after');
    assert.equal(edited.text, '<speak><sub alias="N. A. S. A.">NASA</sub></speak>');
    await assertAccessible(page, 'Pronunciations after a preview');
  });
});
