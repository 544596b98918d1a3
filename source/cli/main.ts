#!/usr/bin/env node
import { parseArgvFast } from './argv.js';
import { commandTable } from './command-table.js';
import { reportError } from './report-error.js';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const { command: name, input } = parseArgvFast(argv) ?? (await import('./meow-argv.js')).parseArgvWithMeow(argv);
  const command = commandTable[name];
  if (!command) {
    process.stderr.write(`claw: unknown command "${name}". Run \`claw --help\` for the list.\n`);
    return 2;
  }
  const run = await command();
  return run(input);
}

main().then(
  (code) => { process.exitCode = code; },
  (error: unknown) => { process.exitCode = reportError(error); },
);
