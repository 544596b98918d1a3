/** Variables an exec child inherits from the gateway; everything else (tokens, provider keys, CLAW_*) stays behind. */
const INHERITED = new Set(['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TERM', 'USER', 'LOGNAME', 'SHELL', 'TZ', 'COLORTERM', 'NO_COLOR']);

function inherited(key: string): boolean {
  return INHERITED.has(key) || key.startsWith('LC_');
}

/**
 * The environment of an exec child: the allowlisted part of `base` plus what
 * the call (or a skill) sets explicitly. The explicit part is shown in the
 * approval and bound into it, so it may name anything.
 */
export function childEnv(base: NodeJS.ProcessEnv, explicit: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined && inherited(key)) env[key] = value;
  return { ...env, ...explicit };
}
