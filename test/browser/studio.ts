import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, afterEach, before } from 'node:test';
import assert from 'node:assert/strict';
import type { AxeResults, Result } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createKeyWithCli, GENEROUS_LIMITS, startTimbre, removeDir, type CreatedKey, type RunningTimbre } from '../helpers/timbre.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Debian's chromium (npm run setup installs it); playwright-core downloads no browser of its own. */
export const CHROMIUM = process.env.TIMBRE_CHROMIUM ?? '/usr/bin/chromium';

/** The two sizes every screen is made for and photographed at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * Chromium logs every 4xx answer as a console error; those are the service refusing a request,
 * which the studio shows as the service's message (tests assert it). Anything else, 5xx included,
 * counts as an error.
 */
const REFUSAL_LOG = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

/** Screenshots are test artifacts (gitignored): test/browser/artifacts/<screen>-<viewport>.png. */
export const ARTIFACTS = `${REPO_ROOT}test/browser/artifacts`;

export interface Studio {
  server: RunningTimbre;
  admin: CreatedKey;
  browser: Browser;
  /** A new browser context signed in with the admin key (a session cookie), at `/#/<screen>`. */
  open(screen: string, viewport?: ViewportName): Promise<Page>;
  /** Writes the page's screenshot as an artifact named for the screen and viewport. */
  shoot(page: Page, name: string): Promise<void>;
}

interface Watched {
  context: BrowserContext;
  errors: string[];
}

/**
 * One real server (contract check on) and one Debian chromium per test file. Every page is
 * watched: a console error or an uncaught exception in any page fails the test that opened it.
 * `env` is read when the server starts, so it can name what an earlier before() started (Redis).
 */
export function useStudio(options: { args?: string[]; env?: () => Record<string, string> } = {}): Studio {
  const studio = {} as Studio;
  const watched: Watched[] = [];
  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    studio.server = await startTimbre({ args: options.args, env: options.env?.() });
    studio.admin = await createKeyWithCli(studio.server.dataDir, 'studio-test', GENEROUS_LIMITS);
    studio.browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Root in CI has no user namespace for the sandbox; the fake devices give MediaRecorder a microphone.
      args: ['--no-sandbox', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
    });
    studio.open = async (screen, viewport = 'desktop') => {
      const context = await studio.browser.newContext({ viewport: VIEWPORTS[viewport], baseURL: studio.server.url, permissions: ['microphone'] });
      const errors: string[] = [];
      watched.push({ context, errors });
      const signIn = await context.request.post('/api/session', { data: { api_key: studio.admin.key }, headers: { origin: studio.server.url } });
      assert.equal(signIn.status(), 201, await signIn.text());
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && !REFUSAL_LOG.test(message.text())) errors.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
      await page.goto(`/#/${screen}`);
      return page;
    };
    studio.shoot = async (page, name) => {
      const size = page.viewportSize();
      const viewport = size && size.width < 600 ? 'phone' : 'desktop';
      await page.screenshot({ path: `${ARTIFACTS}/${name}-${viewport}.png`, fullPage: false });
    };
  });
  afterEach(async () => {
    const pages = watched.splice(0);
    for (const { context } of pages) await context.close();
    assert.deepEqual(
      pages.flatMap(({ errors }) => errors),
      [],
      'no console errors in the studio',
    );
  });
  after(async () => {
    await studio.browser?.close();
    await studio.server?.stop();
    if (studio.server) await removeDir(studio.server.dataDir);
  });
  return studio;
}

/** The impacts a person with a screen reader or a keyboard cannot work around; minor and moderate ones are reported by axe but not failed on. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function describeViolation(violation: Result): string {
  const nodes = violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ') ?? ''}`);
  return `  ${violation.impact ?? 'unknown'} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes.join('\n')}`;
}

/** The page as it is now, checked by axe-core: each serious or critical violation described, none when there is none. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the studio's Content-Security-Policy (rightly) refuses inline scripts.
  await page.evaluate(`${await AXE_SOURCE}\n;undefined`);
  // label-content-name-mismatch is experimental in axe, so off unless asked for; a button whose name does not start with its visible words is one a voice-control user cannot say.
  const results = await page.evaluate<AxeResults>(
    "axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })",
  );
  return results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? '')).map(describeViolation);
}

/** Fails unless axe-core finds no serious or critical violation on the page as it is now (after an action: what only an action shows). */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], `serious or critical violations on ${label}:\n${violations.join('\n')}`);
}

/** How long a long-form task of a few sentences may take to speak in a test. */
export const SYNTHESIS_MS = 90_000;

/** Waits until `count` sentences (chunks) are shown, each completed. */
export async function chunksDone(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const chunks = Array.from(document.querySelectorAll<HTMLElement>('li.chunk'));
      return chunks.length === expected && chunks.every((chunk) => chunk.dataset.state === 'completed');
    },
    count,
    { timeout: SYNTHESIS_MS },
  );
}

/** Waits until the audio element named `label` has loaded a non-zero duration; answers it. */
export async function audioDuration(page: Page, label: string): Promise<number> {
  const handle = await page.waitForFunction(
    (name) => {
      const audio = document.querySelector<HTMLAudioElement>(`audio[aria-label="${name}"]`);
      return audio && Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : undefined;
    },
    label,
    { timeout: 30_000 },
  );
  return Number(await handle.jsonValue());
}
