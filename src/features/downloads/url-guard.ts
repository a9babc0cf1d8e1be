import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../platform/errors.js';

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

/** How a refusal names the address ranges of ipaddr.js (other ranges keep their own name). */
const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'shared (CGNAT)',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'site-local',
};

/** NAT64's well-known prefix (RFC 6052): the last 32 bits are an IPv4 address a translator reaches. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 address leads to: NAT64 (last 32 bits), 6to4 (bits 16–48) and the
 * deprecated IPv4-compatible form `::a.b.c.d` (last 32 bits). Such an address is as reachable as
 * the IPv4 address it carries, so that is what is judged.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (address.match(NAT64)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  if (bytes.slice(0, 12).every((byte) => byte === 0) && address.range() === 'unicast') return new ipaddr.IPv4(bytes.slice(12, 16));
  return undefined;
}

/**
 * Why a download may not reach the address (the kind of range it is in), or undefined when it is
 * a globally routable unicast address. Ranges come from ipaddr.js's list of special-purpose
 * blocks (RFC 6890 and later): loopback, private, link-local, CGNAT, multicast, reserved,
 * benchmarking, documentation, Teredo, ORCHID and the rest. IPv4-mapped IPv6 addresses are judged
 * as IPv4; addresses embedding an IPv4 address by the IPv4 address they lead to.
 */
export function blockedKind(address: string): string | undefined {
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv6) {
    const embedded = embeddedIPv4(parsed);
    if (embedded) {
      const kind = blockedKind(embedded.toString());
      return kind && `${kind} (embedded in ${parsed.range() === '6to4' ? '6to4' : parsed.match(NAT64) ? 'NAT64' : 'IPv4-compatible'} IPv6)`;
    }
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : (RANGE_NAMES[range] ?? range);
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
        throw new ApiError(403, 'url_address_not_allowed', `${host} resolves to a ${kind} address (${address}), which downloads may not reach`, {
          host,
          address,
        });
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
