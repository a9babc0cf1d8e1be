import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cli } from '../helpers/timbre.js';
import { useStudio, VIEWPORTS, type ViewportName } from './studio.js';

describe('signing in to the studio', () => {
  const studio = useStudio();

  /**
   * A page with no session yet, watched for uncaught errors like every other; `consoleErrors`
   * holds every console error, the 4xx lines the studio's other pages may ignore included.
   */
  async function signedOut(viewport: ViewportName) {
    const context = await studio.browser.newContext({ viewport: VIEWPORTS[viewport], baseURL: studio.server.url });
    const errors: string[] = [];
    const consoleErrors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    return { context, page, errors, consoleErrors };
  }

  test('loading the sign-in page logs no console error at all', async () => {
    const { context, page, errors, consoleErrors } = await signedOut('desktop');
    try {
      await page.goto('/');
      await page.getByLabel('API key').waitFor();
      // The session check on load has been answered (the form shows only after it).
      await page.waitForLoadState('networkidle');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('with an API key: a wrong one is refused with the service’s message, the right one opens the studio, signing out ends it', async () => {
    const { context, page, errors } = await signedOut('desktop');
    try {
      await page.goto('/');
      await page.getByLabel('API key').fill(`tmb_${'x'.repeat(43)}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal(await page.getByRole('alert').textContent(), 'The API key is not valid (invalid_api_key)');
      await studio.shoot(page, 'sign-in');

      await page.getByLabel('API key').fill(studio.admin.key);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const cookies = await context.cookies();
      const session = cookies.find((cookie) => cookie.name === 'timbre_session');
      assert.ok(session?.httpOnly && session.sameSite === 'Strict', 'the session is an HttpOnly, SameSite=Strict cookie');
      assert.ok(!cookies.some((cookie) => cookie.value.includes(studio.admin.key)), 'the key itself is not kept');
      assert.equal(
        await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })).then((stored) => stored.includes('tmb_')),
        false,
      );

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      const after = await page.request.get('/api/session');
      assert.deepEqual([after.status(), await after.json()], [200, { signed_in: false }]);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('with the one-time link `timbre studio` prints: it signs in once and leaves the address bar', async () => {
    const printed = await cli(['studio', '--no-open', '--json', '--data-dir', studio.server.dataDir, '--port', String(studio.server.port)]);
    assert.equal(printed.code, 0, printed.stderr);
    const { url } = JSON.parse(printed.stdout);
    const { context, page, errors, consoleErrors } = await signedOut('phone');
    try {
      await page.goto(url);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      assert.deepEqual(consoleErrors, [], 'signing in by the link logs no error either');
      assert.doesNotMatch(page.url(), /signin/, 'the token is removed from the address');
      assert.equal(await page.locator('.who').textContent(), 'Timbre Studio');
      await studio.shoot(page, 'signed-in');

      const second = await context.browser()!.newContext({ baseURL: studio.server.url });
      const again = await second.newPage();
      await again.goto(url);
      assert.match(String(await again.getByRole('alert').textContent()), /sign_in_link_invalid/);
      await second.close();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
