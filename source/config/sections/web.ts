import { isIP } from 'node:net';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

const hostPattern = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

function isAllowEntry(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  if (bits !== undefined) {
    const family = isIP(address);
    const max = family === 4 ? 32 : family === 6 ? 128 : 0;
    return max > 0 && /^\d+$/.test(bits) && Number(bits) <= max;
  }
  return isIP(address) !== 0 || hostPattern.test(address);
}

export const webToolSection = lazySchema(() =>
  z.strictObject({
    /**
     * Hosts (`intranet.lan`, `*.corp.example`), addresses or CIDRs that web_fetch
     * may reach even though they are loopback, private, link-local or metadata.
     */
    allowPrivate: z.array(z.string().refine(isAllowEntry, 'expected a host name, an IP address or a CIDR like 10.0.0.0/8')).default([]),
    /** Largest decoded body read; the rest is cut off and the result says so. */
    maxBytes: z.number().int().positive().default(2_000_000),
    /** Whole fetch, redirects included. */
    timeoutMs: z.number().int().positive().default(20_000),
  }),
);
