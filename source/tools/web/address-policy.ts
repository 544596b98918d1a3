import { isIP } from 'node:net';

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6) so one matcher serves both families. */
type Bytes = Uint8Array;

interface Cidr {
  bytes: Bytes;
  /** Prefix length over the 128-bit form. */
  bits: number;
}

function parseV4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : 256));
  return out.every((n) => n <= 255) ? out : undefined;
}

function parseV6(text: string): Bytes | undefined {
  let source = text.toLowerCase().replace(/%.*$/, '');
  const lastColon = source.lastIndexOf(':');
  if (source.includes('.', lastColon)) {
    const v4 = parseV4(source.slice(lastColon + 1));
    if (!v4) return undefined;
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    source = `${source.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const [head, rest, extra] = source.split('::');
  if (extra !== undefined) return undefined;
  const words = (s: string | undefined) =>
    s
      ? s
          .split(':')
          .filter((w) => w !== '')
          .map((w) => parseInt(w, 16))
      : [];
  const left = words(head);
  const right = words(rest);
  const missing = 8 - left.length - right.length;
  if (rest === undefined && missing !== 0) return undefined;
  if (missing < 0) return undefined;
  const all = [...left, ...new Array<number>(missing).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/** 16-byte form of an IPv4 or IPv6 literal, or undefined when it is not one. */
export function addressBytes(address: string): Bytes | undefined {
  const family = isIP(address);
  if (family === 4) {
    const v4 = parseV4(address)!;
    return Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  }
  if (family === 6) return parseV6(address);
  return undefined;
}

export function parseCidr(text: string): Cidr | undefined {
  const [address, bitsText] = text.split('/');
  if (address === undefined) return undefined;
  const bytes = addressBytes(address);
  if (!bytes) return undefined;
  const max = isIP(address) === 4 ? 32 : 128;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
  return { bytes, bits: isIP(address) === 4 ? bits + 96 : bits };
}

function inCidr(bytes: Bytes, cidr: Cidr): boolean {
  for (let bit = 0; bit < cidr.bits; bit += 1) {
    const index = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[index]! & mask) !== (cidr.bytes[index]! & mask)) return false;
  }
  return true;
}

const blockedRanges: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT (CGNAT) address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.169.254/32', 'the cloud metadata address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'an IETF protocol-assignment address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved or broadcast address'],
  ['::/128', 'the unspecified IPv6 address'],
  ['::1/128', 'the IPv6 loopback address'],
  ['fd00:ec2::254/128', 'the cloud metadata address'],
  ['fc00::/7', 'a unique-local (private) IPv6 address'],
  ['fe80::/10', 'a link-local IPv6 address'],
  ['fec0::/10', 'a site-local IPv6 address'],
  ['ff00::/8', 'a multicast IPv6 address'],
  ['100::/64', 'a discard-only IPv6 address'],
  ['2001:db8::/32', 'a documentation IPv6 address'],
  ['2001::/32', 'a Teredo tunnel address (it hides an IPv4 address)'],
];
interface KnownRanges {
  blocked: Array<{ cidr: Cidr; text: string; label: string }>;
  /** Prefixes that carry an IPv4 address inside an IPv6 one: the inner address is what gets reached. */
  mapped: Cidr;
  compatible: Cidr;
  nat64: Cidr;
  sixToFour: Cidr;
}

let parsedRanges: KnownRanges | undefined;

/** Parsed at the first check rather than at every gateway start, which loads this module with the tools. */
function knownRanges(): KnownRanges {
  parsedRanges ??= {
    blocked: blockedRanges.map(([cidr, label]) => ({ cidr: parseCidr(cidr)!, text: cidr, label })),
    mapped: parseCidr('::ffff:0:0/96')!,
    compatible: parseCidr('::/96')!,
    nat64: parseCidr('64:ff9b::/96')!,
    sixToFour: parseCidr('2002::/16')!,
  };
  return parsedRanges;
}

function embeddedV4(bytes: Bytes): Bytes | undefined {
  const { mapped, nat64, sixToFour, compatible } = knownRanges();
  const asMapped = (v4: Bytes) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  if (inCidr(bytes, mapped)) return undefined;
  if (inCidr(bytes, nat64)) return asMapped(bytes.slice(12, 16));
  if (inCidr(bytes, sixToFour)) return asMapped(bytes.slice(2, 6));
  // ::1 and :: are matched by their own rules, not as IPv4-compatible forms.
  if (inCidr(bytes, compatible) && bytes.slice(12).some((b, i) => (i < 3 ? b !== 0 : b > 1))) return asMapped(bytes.slice(12, 16));
  return undefined;
}

export interface AddressVerdict {
  allowed: boolean;
  /** Why it is refused, e.g. "a private address (10.0.0.0/8)". */
  reason?: string;
}

/**
 * The allow-list from `tools.web.allowPrivate`: host names (exact, or
 * `*.suffix` for subdomains) and addresses/CIDRs.
 */
export class AddressPolicy {
  readonly #cidrs: Cidr[] = [];
  readonly #hosts: string[] = [];
  readonly #suffixes: string[] = [];

  constructor(allowPrivate: readonly string[]) {
    for (const entry of allowPrivate) {
      const cidr = parseCidr(entry);
      if (cidr) this.#cidrs.push(cidr);
      else if (entry.startsWith('*.')) this.#suffixes.push(entry.slice(1).toLowerCase());
      else this.#hosts.push(entry.toLowerCase());
    }
  }

  /** A host the operator named explicitly may resolve to anything. */
  hostAllowed(hostname: string): boolean {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    return this.#hosts.includes(host) || this.#suffixes.some((suffix) => host.endsWith(suffix));
  }

  check(address: string): AddressVerdict {
    const bytes = addressBytes(address);
    if (!bytes) return { allowed: false, reason: 'not an IP address' };
    if (this.#cidrs.some((cidr) => inCidr(bytes, cidr))) return { allowed: true };
    const inner = embeddedV4(bytes);
    if (inner && this.#cidrs.some((cidr) => inCidr(inner, cidr))) return { allowed: true };
    for (const candidate of inner ? [inner, bytes] : [bytes]) {
      const hit = knownRanges().blocked.find((range) => inCidr(candidate, range.cidr));
      if (hit) return { allowed: false, reason: `${hit.label} (${hit.text}${candidate === inner ? ', embedded in an IPv6 address' : ''})` };
    }
    return { allowed: true };
  }
}
