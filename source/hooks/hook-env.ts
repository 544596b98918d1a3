/**
 * What a hook's process inherits from the gateway: enough to find programs
 * and write temp files, nothing that authenticates (no gateway token, no
 * provider keys). Secrets a hook needs are listed in hooks.entries.<name>.env.
 */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TERM'];

export function hookEnvironment(
  parent: NodeJS.ProcessEnv,
  listed: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra, ...listed };
}
