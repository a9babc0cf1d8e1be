import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useStudio } from './studio.js';

describe('Keys screen', () => {
  const studio = useStudio();

  const voicesWith = (key: string) => fetch(`${studio.server.url}/api/voices?limit=1`, { headers: { 'X-API-Key': key } });

  async function listedKeys(): Promise<{ key_id: string; name: string; revoked_at: string | null }[]> {
    const response = await fetch(`${studio.server.url}/api/api-keys`, { headers: { 'X-API-Key': studio.admin.key } });
    return ((await response.json()) as { keys: { key_id: string; name: string; revoked_at: string | null }[] }).keys;
  }

  test('creates a key whose secret is shown once and works, then revokes and deletes it (desktop)', { timeout: 60_000 }, async () => {
    const page = await studio.open('keys', 'desktop');
    await page.getByRole('listitem', { name: 'Key studio-test' }).getByText('this session', { exact: true }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('reader-e2e');
    await page.getByRole('checkbox', { name: /voices:read/ }).check();
    await page.getByRole('checkbox', { name: /system:read/ }).check();
    await page.getByLabel('Requests per minute for voices:read').fill('30');
    await page.getByRole('button', { name: 'Create key' }).click();

    const secretField = page.getByLabel('Secret of reader-e2e');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^tmb_[A-Za-z0-9_-]{43}$/);
    await page.getByText('it will not be shown again').waitFor();

    const card = page.getByRole('listitem', { name: 'Key reader-e2e' });
    await card.getByText('active', { exact: true }).waitFor();
    const scopes = card.getByRole('list', { name: 'Scopes of reader-e2e' });
    assert.deepEqual(await scopes.getByRole('listitem').allInnerTexts(), ['voices:read 30/min', 'system:read 60/min']);
    assert.ok(!(await card.innerText()).includes(secret), 'the list never shows a secret');
    await studio.shoot(page, 'keys');

    assert.equal((await voicesWith(secret)).status, 200, 'the new key reads voices');

    // The secret lives only in the page's memory: a reload drops it for good.
    await page.reload();
    await card.waitFor();
    assert.equal(await page.getByLabel('Secret of reader-e2e').count(), 0);
    assert.ok(!(await page.content()).includes(secret));

    await card.getByRole('button', { name: 'Revoke reader-e2e' }).click();
    const confirmRevoke = card.getByRole('group', { name: 'Confirm: revoke reader-e2e' });
    await confirmRevoke.getByText('refused from now on').waitFor();
    await confirmRevoke.getByRole('button', { name: 'Yes, revoke it' }).click();
    await card.getByText('revoked', { exact: true }).waitFor();
    assert.equal(await card.getByRole('button', { name: 'Revoke reader-e2e' }).count(), 0);
    const refused = await voicesWith(secret);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'key_revoked');
    assert.ok((await listedKeys()).find((key) => key.name === 'reader-e2e')?.revoked_at);

    // Asking and then keeping changes nothing.
    await card.getByRole('button', { name: 'Delete reader-e2e' }).click();
    await card.getByRole('button', { name: 'Keep it' }).click();
    await card.getByRole('button', { name: 'Delete reader-e2e' }).click();
    await card.getByRole('button', { name: 'Yes, delete it' }).click();
    await card.waitFor({ state: 'detached' });
    assert.equal((await voicesWith(secret)).status, 401);
    assert.ok(!(await listedKeys()).some((key) => key.name === 'reader-e2e'));
  });

  test('fits a phone', async () => {
    const page = await studio.open('keys', 'phone');
    await page.getByRole('listitem', { name: 'Key studio-test' }).waitFor();
    await page.getByRole('checkbox', { name: /tts:generate/ }).check();
    await page.getByLabel('Requests per minute for tts:generate').waitFor();
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await studio.shoot(page, 'keys');
  });
});
