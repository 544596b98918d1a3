import { statePaths } from '../config/index.js';
import { runGatewayDaemon } from '../daemon/index.js';
import type { CommandInput } from './command.js';
import { reportError } from './report-error.js';

/**
 * `claw gateway run`: the daemon in this process. It keeps the process alive
 * and its signal handlers set the exit code, so this never resolves once the
 * daemon has started; `onWarm` hears when its start-up work is done.
 *
 * The executable loads this file as a CommonJS bundle of its own
 * (scripts/build.mjs), compiled with V8's code cache by code-cache.ts; it is
 * the one cli/ file that imports the daemon statically, since it is the
 * daemon's entry (a lazily imported module of such a bundle runs measurably
 * slower per turn). It reports its own errors: its error classes are its
 * bundle's copies.
 */
export async function runGateway(input: CommandInput, onWarm?: () => void): Promise<number> {
  const { flags } = input;
  try {
    await runGatewayDaemon({
      paths: statePaths(),
      echo: Boolean(process.stdout.isTTY),
      ...(flags.port !== undefined ? { port: flags.port } : {}),
      ...(flags.bind !== undefined ? { bind: flags.bind } : {}),
      ...(onWarm ? { onWarm } : {}),
    });
  } catch (error) {
    return reportError(error);
  }
  return new Promise<number>(() => undefined);
}
