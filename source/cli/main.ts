#!/usr/bin/env node
import meow from 'meow';
import { commandTable } from './command-table.js';
import { reportError } from './report-error.js';

const cli = meow(
  `
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
`,
  {
    importMeta: import.meta,
    flags: {
      port: { type: 'number' },
      bind: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowUnknownFlags: true,
  },
);

async function main(): Promise<number> {
  const [name = '', ...rest] = cli.input;
  const command = commandTable[name];
  if (!command) {
    process.stderr.write(`claw: unknown command "${name}". Run \`claw --help\` for the list.\n`);
    return 2;
  }
  const run = await command();
  return run({ args: rest, flags: cli.flags, argv: process.argv.slice(2) });
}

main().then(
  (code) => { process.exitCode = code; },
  (error: unknown) => { process.exitCode = reportError(error); },
);
