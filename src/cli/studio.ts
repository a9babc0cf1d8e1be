import { spawn } from 'node:child_process';
import type { Config } from '../platform/config.js';
import { createServices } from '../app/services.js';
import { serviceBaseUrl } from './service-url.js';
import { ALL_BUDGETS, BUDGET_DEFAULT_LIMITS } from '../features/access/index.js';

/** The key `timbre studio` signs the browser in with: made once with every scope, then reused. */
export const STUDIO_KEY_NAME = 'Timbre Studio';
/**
 * A person's clicks are bursty (one screen lists voices, plays previews, follows a long-form run),
 * so the studio key gets ten times the default limits; `timbre keys limits` changes them.
 */
const STUDIO_LIMITS = Object.fromEntries(ALL_BUDGETS.map((budget) => [budget, BUDGET_DEFAULT_LIMITS[budget] * 10]));

interface StudioOptions {
  open: boolean;
  json: boolean;
}

/** The platform's way to open a URL in the default browser; failures are fine (the link is printed). */
function openInBrowser(url: string): void {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the printed link is the way in.
  }
}

async function isServing(base: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/api/session', base), { signal: AbortSignal.timeout(1500) });
    return response.status < 500;
  } catch {
    return false;
  }
}

/**
 * `timbre studio`: prints (and opens) a link that signs the browser in to the studio once. The
 * link carries a one-time token in its fragment, never a key; the person at this machine owns the
 * data directory, so they get the owner's studio key.
 */
export async function studioCommand(config: Config, options: StudioOptions): Promise<number> {
  const services = createServices(config);
  try {
    const existing = services.keys.list().find((key) => key.name === STUDIO_KEY_NAME && !key.revokedAt && key.createdBy === null);
    const key = existing ?? services.keys.create({ name: STUDIO_KEY_NAME, rateLimits: STUDIO_LIMITS }).record;
    const link = services.sessions.createSignInLink(key.keyId);
    const base = serviceBaseUrl(config);
    const url = `${base}/#signin=${link.token}`;
    const serving = await isServing(base);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ url, expires_at: link.expiresAt, key_id: key.keyId, serving })}\n`);
    } else {
      process.stdout.write(`Timbre Studio: this link signs you in once, until ${link.expiresAt}:\n\n  ${url}\n\n`);
      if (!serving) process.stdout.write(`The service does not answer at ${base}: start it with \`npm start\`, then open the link.\n`);
    }
    if (options.open && serving) openInBrowser(url);
    return 0;
  } finally {
    await services.close();
  }
}
