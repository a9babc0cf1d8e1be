import type { InjectOptions } from 'fastify';
import type { InProcessTimbre } from './in-process.js';

/** The origin to give URLs for an injecting fetch: only their path and query reach the service. */
export const IN_PROCESS_ORIGIN = 'http://127.0.0.1';

/** Statuses whose responses have no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that hands each request to the in-process service's `inject()`, for clients that take
 * a fetch of their own (the official `openai` SDK): the client is exercised as it is, with no port
 * and no process. The whole answer is collected before it is returned.
 */
export function injectingFetch(timbre: InProcessTimbre): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await timbre.app.inject({
      // A Request's method is an upper-case HTTP method, which inject takes as it is.
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: '127.0.0.1' },
      ...(payload ? { payload } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, String(item));
    }
    return new Response(NO_BODY.has(answer.statusCode) ? null : answer.rawPayload, { status: answer.statusCode, headers });
  };
}
