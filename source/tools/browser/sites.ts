/** The rule `tools.browser.sites` gives a host: an exact entry, else the longest matching `*.suffix`, else allow. */
export function siteRule(sites: Readonly<Record<string, 'allow' | 'ask' | 'deny'>>, hostname: string): 'allow' | 'ask' | 'deny' {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const exact = sites[host];
  if (exact) return exact;
  let best: { length: number; rule: 'allow' | 'ask' | 'deny' } | undefined;
  for (const [pattern, rule] of Object.entries(sites)) {
    if (!pattern.startsWith('*.')) continue;
    const suffix = pattern.slice(1).toLowerCase();
    if ((host.endsWith(suffix) || host === suffix.slice(1)) && (!best || suffix.length > best.length)) best = { length: suffix.length, rule };
  }
  return best?.rule ?? 'allow';
}
