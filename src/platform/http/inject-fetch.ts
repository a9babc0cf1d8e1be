import type { InjectOptions, LightMyRequestResponse } from 'fastify';

/** Fastify's `inject()`: a request answered by the service's own routes, hooks and handlers, with no socket. */
export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** Statuses whose responses have no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

const METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;
const isMethod = (method: string): method is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(method);

/**
 * A `fetch` that hands each request to `inject()`, for clients that take a fetch of their own
 * (the typed client, OpenAI's SDK): every request goes through the routes as it would over HTTP,
 * with its own credentials, scopes and rate limits, but without a port. Only the URL's path and
 * query reach the service; the Host is a loopback name, which the host guard accepts. The whole
 * answer is collected before it is returned.
 */
export function injectingFetch(inject: Inject): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!isMethod(request.method)) throw new TypeError(`inject cannot send a ${request.method} request`);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await inject({
      method: request.method,
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
