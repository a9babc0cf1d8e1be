import type { Config } from '../platform/config.js';

/** Where a command on this machine reaches the running service: its host and port, a wildcard host as loopback. */
export function serviceBaseUrl(config: Config): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${config.port}`;
}
