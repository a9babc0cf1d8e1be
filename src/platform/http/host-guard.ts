import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/** The host name of a Host header value, without port or IPv6 brackets. */
export function hostName(header: string): string {
  const trimmed = header.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  return trimmed.replace(/:\d+$/, '');
}

export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

/** Why a request with this Host header is refused, or undefined when the host is ours. */
export function hostRefusal(header: string | undefined, allowed: ReadonlySet<string>): ApiError | undefined {
  const name = header ? hostName(header) : '';
  if (name && (isLoopbackName(name) || allowed.has(name))) return undefined;
  return new ApiError(403, 'host_not_allowed', 'The Host header names a host this service does not answer for', {
    host: header ?? null,
    hint: 'Use localhost or 127.0.0.1, or add the name to TIMBRE_ALLOWED_HOSTS',
  });
}

export function allowedHostSet(allowedHosts: readonly string[]): ReadonlySet<string> {
  return new Set(allowedHosts.map((host) => host.toLowerCase()));
}

/**
 * Refuses requests whose Host is not a loopback name or a configured one, so a web page whose
 * DNS name was rebound to 127.0.0.1 cannot talk to the service from the user's browser.
 */
export function installHostGuard(app: FastifyInstance, allowedHosts: readonly string[]): void {
  const allowed = allowedHostSet(allowedHosts);
  app.addHook('onRequest', async (request) => {
    const refusal = hostRefusal(request.headers.host, allowed);
    if (refusal) throw refusal;
  });
}
