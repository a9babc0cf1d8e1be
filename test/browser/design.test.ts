import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useStudio } from './studio.js';

/**
 * A design is real engine work: the first one of a server also hears every English preset once
 * (about 30 s here), so the wait is generous.
 */
const DESIGN_MS = 150_000;

interface VoiceRecord {
  id: string;
  name: string;
  type: string;
  description: string | null;
  settings: { design?: { understood?: { word: string; attribute: string; value: string | number }[] } };
}

describe('Design screen', () => {
  const studio = useStudio();

  async function designs(): Promise<VoiceRecord[]> {
    const response = await fetch(`${studio.server.url}/api/voices?type=design&limit=500`, { headers: { 'X-API-Key': studio.admin.key } });
    assert.equal(response.status, 200);
    return ((await response.json()) as { voices: VoiceRecord[] }).voices;
  }

  test(
    'designs a voice from a description, shows its progress and the attributes understood, previews and renames it',
    { timeout: DESIGN_MS + 60_000 },
    async () => {
      const page = await studio.open('design', 'desktop');
      await page.getByLabel('Name of the voice').fill('Calm narrator');
      await page.getByLabel('Description', { exact: true }).fill('A calm, deep male voice, slightly slow, British');
      await page.getByRole('button', { name: 'Design the voice' }).click();

      // Progress shows while the job runs, and Cancel is offered.
      await page.getByRole('progressbar', { name: 'Design progress' }).waitFor();
      assert.ok(await page.getByRole('button', { name: 'Cancel' }).isEnabled(), 'a running design can be cancelled');

      const result = page.getByRole('region', { name: 'Calm narrator' });
      await result.waitFor({ timeout: DESIGN_MS });
      await page.getByRole('progressbar', { name: 'Design progress' }).waitFor({ state: 'detached' });
      const attributes = result.getByRole('table', { name: 'What the description was read as' });
      const rows = await attributes.getByRole('row').allInnerTexts();
      const understood = rows.slice(1).map((row) => row.split('\t').map((cell) => cell.trim()));
      assert.deepEqual(
        understood.map(([word, attribute]) => [word, attribute]),
        [
          ['“calm”', 'energy'],
          ['“deep”', 'pitch'],
          ['“male”', 'gender'],
          ['“slightly slow”', 'pace'],
          ['“british”', 'accent'],
        ],
      );
      assert.match(understood.at(-1)?.[2] ?? '', /English \(en-GB\)$/, 'the accent is named with its tag');
      await result.getByText('Median pitch').waitFor();

      // The service stored the voice with what it understood.
      const stored = (await designs()).find((voice) => voice.name === 'Calm narrator');
      assert.ok(stored, 'the design is stored');
      assert.equal(stored.type, 'design');
      assert.deepEqual(
        stored.settings.design?.understood?.map((entry) => entry.attribute),
        ['energy', 'pitch', 'gender', 'pace', 'accent'],
      );
      assert.equal(await result.getByRole('link', { name: 'Speak with this voice' }).getAttribute('href'), `#/speak?voice=${encodeURIComponent(stored.id)}`);

      await result.getByRole('button', { name: 'Preview the voice' }).click();
      await page.waitForFunction(
        () => {
          const audio = document.querySelector<HTMLAudioElement>('audio[aria-label="Preview of Calm narrator"]');
          return audio !== null && Number.isFinite(audio.duration) && audio.duration > 0;
        },
        undefined,
        { timeout: DESIGN_MS },
      );
      await page.evaluate('window.scrollTo(0, 0)');
      await studio.shoot(page, 'design');

      await result.getByLabel('Name', { exact: true }).fill('Calm British narrator');
      await result.getByRole('button', { name: 'Save name and description' }).click();
      // The section is named by the voice: it now carries the new name.
      await page.getByRole('region', { name: 'Calm British narrator' }).getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const renamed = (await designs()).find((voice) => voice.id === stored.id);
      assert.equal(renamed?.name, 'Calm British narrator');
    },
  );

  test('shows earlier designs and fits a phone', { timeout: 60_000 }, async () => {
    const [design] = await designs();
    assert.ok(design, 'the test before made a design');
    const page = await studio.open('design', 'phone');
    const earlier = page.getByRole('region', { name: 'Your designs' });
    await earlier.getByRole('button', { name: `Show ${design.name}` }).click();
    const result = page.getByRole('region', { name: design.name });
    await result.getByRole('table', { name: 'What the description was read as' }).waitFor();
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await studio.shoot(page, 'design');
  });

  test('cancels a running design: nothing is stored', { timeout: DESIGN_MS }, async () => {
    const before = (await designs()).length;
    const page = await studio.open('design', 'desktop');
    await page.getByLabel('Name of the voice').fill('Cancelled voice');
    await page.getByLabel('Description', { exact: true }).fill('A very high, fast, young female voice');
    await page.getByRole('button', { name: 'Design the voice' }).click();
    // Cancel once the service reports the job running (before, there may be nothing to cancel yet).
    await page.locator('.job[data-status="running"]').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('status').filter({ hasText: 'The design was cancelled' }).waitFor({ timeout: DESIGN_MS });
    assert.equal(await page.getByRole('alert').count(), 0, 'a cancel the person asked for is no error');
    assert.ok(await page.getByRole('button', { name: 'Design the voice' }).isEnabled());
    assert.equal((await designs()).length, before, 'no voice was stored');
  });
});
