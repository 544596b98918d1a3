import type { CommandInput } from './command.js';
import { run } from './commands/default.js';
import { reportError } from './report-error.js';

/**
 * `claw` with no command as the executable starts it: the entry of a
 * CommonJS bundle of its own (scripts/build.mjs), compiled with V8's code
 * cache by source/cli/code-cache.ts. It reports its own errors, since the
 * error classes it can throw are its bundle's copies.
 */
export async function runDefault(input: CommandInput): Promise<number> {
  try {
    return await run(input);
  } catch (error) {
    return reportError(error);
  }
}
