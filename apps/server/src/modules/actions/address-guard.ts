import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ACTION_MESSAGES } from '@courselens/contracts';
import type { WebhookAllowedHost } from '../../config';

/**
 * The guard that keeps webhooks off the server's own network (SSRF): a
 * webhook may not reach a loopback, private, link-local, unique-local,
 * unspecified, multicast or otherwise reserved address, in IPv4 or IPv6
 * (IPv4 hidden in IPv6 included: `::ffff:127.0.0.1`, NAT64, 6to4), unless
 * its host is listed in WEBHOOK_ALLOWED_HOSTS. The name is resolved once,
 * every address it resolves to must pass, and the connection then goes to
 * the address that was checked (never a second lookup a DNS server could
 * answer differently).
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Every address of a host name (`dns.lookup` with `all`); injectable in tests. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/** A delivery refused before any connection: the reason is for a person. */
export class DeliveryRefusedError extends Error {
  override name = 'DeliveryRefusedError';
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad read, a zone id dropped). */
function parseIPv6(text: string): number[] | null {
  let address = text.split('%')[0] ?? '';
  if (isIP(address) !== 6) return null;
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = parseIPv4(dotted[1]) ?? [];
    address = `${address.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groupsOf(halves[0] ?? '');
  const right = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < 0) return null;
  const groups = [...left, ...Array<number>(fill).fill(0), ...right];
  return groups.length === 8 &&
    groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

function ipv4Restriction(octets: readonly number[]): string | null {
  const [a = 0, b = 0, c = 0] = octets;
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT, 100.64.0.0/10
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  )
    return 'reserved'; // documentation
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved'; // including the broadcast address
  return null;
}

function embeddedIPv4(high: number, low: number): number[] {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function ipv6Restriction(groups: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d).
  if (firstFiveZero && (g5 === 0xffff || g5 === 0)) return ipv4Restriction(embeddedIPv4(g6, g7));
  // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return ipv4Restriction(embeddedIPv4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private'; // local-use NAT64
  // 6to4 (2002::/16) carries an IPv4 address in bits 16 to 48.
  if (g0 === 0x2002) return ipv4Restriction(embeddedIPv4(g1, g2));
  if (g0 === 0x2001 && g1 === 0) return 'reserved'; // Teredo hides the IPv4 address it reaches
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved'; // documentation
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * Why an IP address may not be reached (`loopback`, `private`, `link-local`,
 * `unique-local`, `unspecified`, `multicast`, `reserved`), or null for a
 * public address. Anything that is not an IP address is refused too.
 */
export function addressRestriction(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) return ipv4Restriction(v4);
  const v6 = parseIPv6(address);
  if (v6) return ipv6Restriction(v6);
  return 'reserved';
}

/** The host of a URL as compared and resolved: lower-case, no IPv6 brackets, no trailing dot. */
export function normalizedHost(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Whether WEBHOOK_ALLOWED_HOSTS lists the URL's host (with its port, when the entry names one). */
export function isAllowedHost(allowed: readonly WebhookAllowedHost[], url: URL): boolean {
  const host = normalizedHost(url);
  const port = portOf(url);
  return allowed.some((entry) => entry.host === host && (entry.port === null || entry.port === port));
}

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * What can be told from the URL alone, without DNS (when an action is
 * saved): a restricted IP address or a localhost name that is not allowed.
 * Null when the URL may be fine; the delivery checks the resolved addresses.
 */
export function literalHostProblem(url: URL, allowed: readonly WebhookAllowedHost[]): string | null {
  if (isAllowedHost(allowed, url)) return null;
  const host = normalizedHost(url);
  const isAddress = isIP(host) !== 0;
  if ((isAddress && addressRestriction(host) !== null) || (!isAddress && isLocalhostName(host))) {
    return ACTION_MESSAGES.hostNotAllowed(host);
  }
  return null;
}

/**
 * The one address to connect to for a URL: resolved once, every address
 * checked (unless the host is allowed). Throws DeliveryRefusedError with a
 * message for a person when the host is refused or cannot be found.
 */
export async function resolveDeliveryAddress(
  url: URL,
  allowed: readonly WebhookAllowedHost[],
  lookup: HostLookup = systemLookup,
): Promise<ResolvedAddress> {
  const host = normalizedHost(url);
  const isAllowed = isAllowedHost(allowed, url);
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else if (isLocalhostName(host) && !isAllowed) {
    throw new DeliveryRefusedError(ACTION_MESSAGES.hostNotAllowed(host));
  } else {
    try {
      addresses = await lookup(host);
    } catch {
      throw new DeliveryRefusedError(ACTION_MESSAGES.hostNotFound(host));
    }
  }
  const [first] = addresses;
  if (!first) throw new DeliveryRefusedError(ACTION_MESSAGES.hostNotFound(host));
  if (!isAllowed && addresses.some((candidate) => addressRestriction(candidate.address) !== null)) {
    throw new DeliveryRefusedError(ACTION_MESSAGES.hostNotAllowed(host));
  }
  return first;
}
