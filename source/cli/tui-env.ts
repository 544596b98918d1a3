import * as v8 from 'node:v8';
import { applyTuiHeapPolicy } from './heap-policy.js';

/**
 * Prepares the process for the interactive TUI; must run before Ink is
 * imported. Ink decides at import time that it runs in CI when `CI` (or a
 * `CI_*` variable) is set and then draws nothing live, which would leave a
 * user with CI set in their shell staring at a blank screen. React's
 * development build keeps debug data per render and grows in a long session.
 * The heap policy (heap-policy.ts) applies from here on: V8 reads the flag
 * each time it resizes the heap.
 */
export function prepareInteractiveEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(env)) if (name === 'CI' || name.startsWith('CI_') || name === 'CONTINUOUS_INTEGRATION') delete env[name];
  env.NODE_ENV ??= 'production';
  applyTuiHeapPolicy(v8);
}

/**
 * Loads the TUI. Ink's layout engine decodes its WebAssembly through `fetch`
 * when there is one, and a process's first fetch loads undici: about 40 ms of
 * start-up and 8 MB the TUI has no other use for. Without fetch it decodes the
 * same bytes itself, so fetch is out of sight while the modules evaluate.
 */
export async function importTui(): Promise<typeof import('../tui/index.js')> {
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchProperty?.configurable) Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await import('../tui/index.js');
  } finally {
    if (fetchProperty?.configurable) Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}
