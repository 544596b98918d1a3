import { ClawError } from '../protocol/index.js';
import { ConfigError } from '../config/index.js';

/** Prints an error the way a user can act on it; returns the exit code. */
export function reportError(error: unknown): number {
  if (error instanceof ConfigError) {
    process.stderr.write(`claw: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ClawError) {
    process.stderr.write(`claw: ${error.message}\n`);
    return error.code === 'bad_request' ? 2 : 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`claw: ${message}\n`);
  if (process.env.CLAW_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}
