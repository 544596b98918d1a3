import { spawnSync } from 'node:child_process';

/** Settings that make git run a program of the repository's choosing; set whatever the repo's config says. */
const FIXED: readonly [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.askPass', ''],
  ['core.gitProxy', ''],
  ['core.sshCommand', 'ssh'],
  ['credential.helper', ''],
  ['gpg.program', 'gpg'],
  ['protocol.ext.allow', 'never'],
];

/** Per-name settings (a diff driver, a filter, an alias, a pager per command) found in the repo's config. */
function neutralValue(key: string): string | undefined {
  if (/^(diff|merge)\..+\.(textconv|cachetextconv)$/i.test(key) || /^filter\..+\.(clean|smudge)$/i.test(key) || /^pager\./i.test(key)) return 'cat';
  if (/^(diff|merge)\..+\.(command|driver)$/i.test(key) || /^filter\..+\.process$/i.test(key) || /^alias\./i.test(key)) return '';
  return undefined;
}

function configuredKeys(git: string, cwd: string, env: Record<string, string>): string[] {
  // Listing config reads files only; it runs nothing the repo configured.
  const listed = spawnSync(git, ['config', '--list', '--name-only', '-z'], { cwd, env, encoding: 'utf8', timeout: 5000 });
  return listed.status === 0 ? listed.stdout.split('\0').filter(Boolean) : [];
}

/**
 * The argv and extra env for running git with the repository's code-running
 * settings (fsmonitor, hooks, pagers, textconv and filter drivers, aliases,
 * credential helpers) turned off through `-c`, which outranks every config
 * file the agent could have written.
 */
export function hardenGit(git: string, argv: readonly string[], cwd: string, env: Record<string, string>): { args: string[]; env: Record<string, string> } {
  const overrides = new Map<string, string>(FIXED);
  for (const key of configuredKeys(git, cwd, env)) {
    const value = neutralValue(key);
    if (value !== undefined) overrides.set(key, value);
  }
  const args = [...overrides].flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  return { args: [...args, ...argv.slice(1)], env: { GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' } };
}

export function isGit(executable: string): boolean {
  return executable.slice(executable.lastIndexOf('/') + 1) === 'git';
}

/**
 * The fixed settings as GIT_CONFIG_COUNT/KEY/VALUE, for every exec child:
 * they reach git started by a script or a shell command too, where no `-c`
 * can be added.
 */
export function gitConfigEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(FIXED.length) };
  FIXED.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}
