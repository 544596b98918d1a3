/** Token counts as every client and the gateway's own replies show them: 950, 1.2k, 34k, 1.5M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** How long until a moment, as the cooldown messages say it: "in 25 s", "in 4 min". */
export function formatUntil(until: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
}
