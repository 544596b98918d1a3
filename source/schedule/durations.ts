const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i;

/** `90s`, `20m`, `2h`, `1d` (or `0`) in milliseconds; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const match = DURATION.exec(trimmed);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
}

/** The short form a person reads: 90000 → `1m30s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join('');
}
