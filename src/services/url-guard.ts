import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../errors.js';

/**
 * Guards server-side downloads against reaching the machine itself or its network (SSRF): a
 * URL given to the service must not become a way to read 127.0.0.1 services, cloud metadata at
 * 169.254.169.254 or the LAN.
 */
export interface GuardOptions {
  /** Let loopback, link-local and private addresses through (tests, home servers). */
  allowPrivate: boolean;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** Ranges a download may not reach unless allowed, named for the error message. */
const BLOCKED_RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['100.64.0.0', 10, 'ipv4', 'shared (CGNAT)'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fc00::', 7, 'ipv6', 'private'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

// One list per range so a refusal can say which kind of address it was. BlockList also matches
// IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against the IPv4 ranges.
const RANGES = BLOCKED_RANGES.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, kind };
});

/** The kind of blocked range the address is in, or undefined when it is public. */
export function blockedKind(address: string): string | undefined {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return RANGES.find(({ list }) => list.check(address, family))?.kind;
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ApiError(400, 'invalid_url', 'The URL cannot be parsed', { url: raw });
  }
}

/** `[::1]` in a URL is `::1` to the resolver. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ApiError(502, 'host_unreachable', `The host ${host} cannot be resolved`, { host, reason: code ?? 'lookup_failed' });
  }
}

/**
 * Resolves a host and returns the address to connect to. Every address it resolves to must be
 * allowed, not just the first: a name with one public and one private address could otherwise
 * be used to reach the private one. Callers connect to the returned address itself so that a
 * second lookup (DNS rebinding) cannot swap it.
 */
export async function resolveAllowed(hostname: string, options: GuardOptions): Promise<string> {
  const host = bareHost(hostname);
  const addresses = await resolveAll(host);
  if (!options.allowPrivate) {
    for (const address of addresses) {
      const kind = blockedKind(address);
      if (kind) {
        throw new ApiError(403, 'url_address_not_allowed', `${host} resolves to a ${kind} address (${address}), which downloads may not reach`, { host, address });
      }
    }
  }
  return addresses[0]!;
}

/** Checks a URL before anything is fetched: http(s) only, and a host resolving to allowed addresses. */
export async function assertDownloadable(url: string, options: GuardOptions): Promise<URL> {
  const parsed = parseUrl(url);
  if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
    throw new ApiError(400, 'url_scheme_not_allowed', `Only http and https URLs can be downloaded, not ${parsed.protocol.replace(/:$/, '')}`, {
      scheme: parsed.protocol.replace(/:$/, ''),
    });
  }
  await resolveAllowed(parsed.hostname, options);
  return parsed;
}
