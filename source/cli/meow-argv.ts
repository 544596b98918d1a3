import meow from 'meow';
import { knownFlags, type ParsedArgv } from './argv.js';

const help = `
  Usage
    $ claw                          open the TUI (starts the local gateway if needed)
    $ claw <command> [options]

  Commands
    gateway run|start|stop|restart|status|token    manage the gateway daemon
    status                                          gateway status (same as gateway status)
    config get|set|unset|path [key] [value]        read and edit ~/.claw/claw.json

  Options
    --port <n>        gateway port (run/start)
    --json            machine-readable output where supported
    --help, --version

  Environment
    CLAW_STATE_DIR, CLAW_GATEWAY_PORT, CLAW_GATEWAY_TOKEN
`;

/** The full parser: help, version and flags the fast path does not know. Exits on --help/--version. */
export function parseArgvWithMeow(argv: readonly string[]): ParsedArgv {
  const cli = meow(help, {
    importMeta: import.meta,
    argv: [...argv],
    flags: knownFlags,
    allowUnknownFlags: true,
  });
  const [command = '', ...args] = cli.input;
  return { command, input: { args, flags: cli.flags, argv: [...argv] } };
}
