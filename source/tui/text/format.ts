/** Short human forms for numbers and times shown in narrow panes. */

export { formatTokens } from '../../protocol/index.js';

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  return `${Math.round((part / whole) * 100)}%`;
}

/** `agent:main:telegram:direct:42` → `telegram:direct:42`; `agent:main:main` → `main`. */
export function shortSessionKey(key: string): string {
  const parts = key.split(':');
  if (parts[0] === 'agent' && parts.length > 2) return parts.slice(2).join(':');
  return key;
}

/** A one-line summary of tool arguments for collapsed tool cards. */
export function summarizeArgs(args: Record<string, unknown> | undefined): string {
  if (!args) return '';
  const preferred = ['command', 'path', 'query', 'url', 'task'];
  for (const key of preferred) {
    const value = args[key];
    if (typeof value === 'string') return value.replace(/\s+/g, ' ');
  }
  const json = JSON.stringify(args);
  return json === '{}' ? '' : json;
}

/** How long ago, in the largest unit that fits: `now`, `5m ago`, `3h ago`, `2d ago`. */
export function formatAge(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}
