import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, useStudio, VIEWPORTS, type ViewportName } from './studio.js';

/** The screens as the navigation lists them (it is made from studio/src/routes.ts SCREENS), so a new screen is covered without a change here. */
async function screensOf(page: Page): Promise<string[]> {
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  const hrefs = await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  return hrefs.flatMap((href) => (href?.startsWith('#/') ? [href.slice(2)] : []));
}

/** Waits until the screen has read what it shows; a screen that keeps polling (System) never goes quiet, so the wait is bounded. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

describe('Accessibility of every studio screen (axe-core)', () => {
  const studio = useStudio();

  for (const viewport of Object.keys(VIEWPORTS).filter((name): name is ViewportName => name in VIEWPORTS)) {
    test(`no serious or critical violation on any screen (${viewport})`, { timeout: 240_000 }, async () => {
      const page = await studio.open('speak', viewport);
      const screens = await screensOf(page);
      assert.ok(screens.length >= 9, `the navigation lists the screens: ${screens.join(', ')}`);
      const found: string[] = [];
      for (const screen of screens) {
        await page.goto(`/#/${screen}`);
        await page.reload();
        await settled(page);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found.push(`${screen} (${viewport}):\n${violations.join('\n')}`);
      }
      assert.deepEqual(found, [], `serious or critical violations:\n${found.join('\n')}`);
    });
  }
});
