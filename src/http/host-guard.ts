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

/**
 * Refuses requests whose Host is not a loopback name or a configured one, so a web page whose
 * DNS name was rebound to 127.0.0.1 cannot talk to the service from the user's browser.
 */
export function installHostGuard(app: FastifyInstance, allowedHosts: readonly string[]): void {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  app.addHook('onRequest', async (request) => {
    const header = request.headers.host;
    const name = header ? hostName(header) : '';
    if (name && (isLoopbackName(name) || allowed.has(name))) return;
    throw new ApiError(403, 'host_not_allowed', 'The Host header names a host this service does not answer for', {
      host: header ?? null,
      hint: 'Use localhost or 127.0.0.1, or add the name to TIMBRE_ALLOWED_HOSTS',
    });
  });
}
