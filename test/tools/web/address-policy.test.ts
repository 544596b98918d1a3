import { describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../../source/tools/web/index.js';

const refused: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.5.4', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /metadata/],
  ['169.254.10.1', /link-local/],
  ['100.64.0.1', /CGNAT/],
  ['100.127.255.254', /CGNAT/],
  ['0.0.0.0', /unspecified/],
  ['224.0.0.1', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fd00::1', /unique-local/],
  ['fc12:3456::1', /unique-local/],
  ['fd00:ec2::254', /metadata/],
  ['fe80::1', /link-local/],
  ['ff02::1', /multicast/],
  ['::ffff:127.0.0.1', /loopback/],
  ['::ffff:7f00:1', /loopback/],
  ['::ffff:169.254.169.254', /metadata/],
  ['::ffff:10.0.0.1', /private/],
  ['64:ff9b::a00:1', /private.*embedded/],
  ['2002:a9fe:a9fe::1', /metadata.*embedded/],
  ['::127.0.0.1', /loopback.*embedded/],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
];

const allowed = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

describe('AddressPolicy', () => {
  const policy = new AddressPolicy([]);

  it.each(refused)('refuses %s', (address, reason) => {
    const verdict = policy.check(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(reason);
  });

  it.each(allowed)('allows public %s', (address) => {
    expect(policy.check(address)).toEqual({ allowed: true });
  });

  it('lets allow-listed CIDRs and hosts through, and nothing beside them', () => {
    const custom = new AddressPolicy(['127.0.0.1', '10.20.0.0/16', 'fd00::/8', 'intranet.lan', '*.corp.example']);
    expect(custom.check('127.0.0.1').allowed).toBe(true);
    expect(custom.check('::ffff:127.0.0.1').allowed).toBe(true);
    expect(custom.check('127.0.0.2').allowed).toBe(false);
    expect(custom.check('10.20.9.9').allowed).toBe(true);
    expect(custom.check('10.21.0.1').allowed).toBe(false);
    expect(custom.check('fd00::5').allowed).toBe(true);
    expect(custom.check('fe80::5').allowed).toBe(false);
    expect(custom.hostAllowed('INTRANET.lan')).toBe(true);
    expect(custom.hostAllowed('wiki.corp.example')).toBe(true);
    expect(custom.hostAllowed('corp.example.evil.com')).toBe(false);
    expect(custom.hostAllowed('other.lan')).toBe(false);
  });
});
