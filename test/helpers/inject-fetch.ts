import { injectingFetch as injectingFetchOf } from '../../src/platform/http/inject-fetch.js';
import type { InProcessTimbre } from './in-process.js';

/** The origin to give URLs for an injecting fetch: only their path and query reach the service. */
export const IN_PROCESS_ORIGIN = 'http://127.0.0.1';

/**
 * A `fetch` that hands each request to the in-process service's `inject()` (see
 * src/platform/http/inject-fetch.ts), for clients that take a fetch of their own (the official
 * `openai` SDK, MCP's client): the client is exercised as it is, with no port and no process.
 */
export function injectingFetch(timbre: InProcessTimbre): typeof fetch {
  return injectingFetchOf((options) => timbre.app.inject(options));
}
