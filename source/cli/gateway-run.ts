import type { CommandInput } from './command.js';
import { runInForeground } from './commands/gateway.js';
import { reportError } from './report-error.js';

/**
 * `claw gateway run` as the executable starts it: the entry of a CommonJS
 * bundle of its own (scripts/build.mjs), compiled with V8's code cache by
 * source/cli/code-cache.ts. It reports its own errors, since the error
 * classes it can throw are its bundle's copies.
 */
export async function runGateway(input: CommandInput, onWarm: () => void): Promise<number> {
  try {
    return await runInForeground(input.flags, onWarm);
  } catch (error) {
    return reportError(error);
  }
}
