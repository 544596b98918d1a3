/**
 * Prepares the process for the interactive TUI; must run before Ink is
 * imported. Ink decides at import time that it runs in CI when `CI` (or a
 * `CI_*` variable) is set and then draws nothing live, which would leave a
 * user with CI set in their shell staring at a blank screen. React's
 * development build keeps debug data per render and grows in a long session.
 */
export function prepareInteractiveEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(env)) if (name === 'CI' || name.startsWith('CI_') || name === 'CONTINUOUS_INTEGRATION') delete env[name];
  env.NODE_ENV ??= 'production';
}
