import meow from 'meow';
import { knownFlags, type ParsedArgv } from './argv.js';
import { generalHelp } from './help.js';

/** The full parser for flags the fast path does not know; main.ts answers --help and --version first. */
export function parseArgvWithMeow(argv: readonly string[]): ParsedArgv {
  const cli = meow(generalHelp(), {
    autoHelp: false,
    autoVersion: false,
    importMeta: import.meta,
    argv: [...argv],
    flags: knownFlags,
    allowUnknownFlags: true,
  });
  const [command = '', ...args] = cli.input;
  return { command, input: { args, flags: cli.flags, argv: [...argv] } };
}
