import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { useStudio, VIEWPORTS, type ViewportName } from './studio.js';

/** The impacts a person with a screen reader or a keyboard cannot work around; minor and moderate ones are reported by axe but not failed on. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

function describeViolation(violation: Result): string {
  const nodes = violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ') ?? ''}`);
  return `  ${violation.impact ?? 'unknown'} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes.join('\n')}`;
}

async function seriousViolations(page: Page): Promise<Result[]> {
  // Evaluated rather than added as a script tag: the studio's Content-Security-Policy (rightly) refuses inline scripts.
  await page.evaluate(`${await AXE_SOURCE}\n;undefined`);
  // label-content-name-mismatch is experimental in axe, so off unless asked for; a button whose name does not start with its visible words is one a voice-control user cannot say.
  const results = await page.evaluate<AxeResults>(
    "axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })",
  );
  return results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
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
        if (violations.length > 0) found.push(`${screen} (${viewport}):\n${violations.map(describeViolation).join('\n')}`);
      }
      assert.deepEqual(found, [], `serious or critical violations:\n${found.join('\n')}`);
    });
  }
});
