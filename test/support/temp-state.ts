import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statePaths, type StatePaths } from '../../source/config/index.js';

export interface TempState {
  dir: string;
  paths: StatePaths;
  /** Environment for child processes: this state dir, no inherited gateway settings. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** A fresh CLAW_STATE_DIR for one test; remove it with cleanup(). */
export function makeTempState(prefix = 'claw-test-'): TempState {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = { ...process.env, CLAW_STATE_DIR: dir };
  delete env.CLAW_GATEWAY_PORT;
  delete env.CLAW_GATEWAY_TOKEN;
  return {
    dir,
    paths: statePaths(dir),
    env,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
