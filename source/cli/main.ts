#!/usr/bin/env node
import { parseArgvFast } from './argv.js';
import { commandTable } from './command-table.js';
import { quietOnClosedPipe } from './closed-pipe.js';
import { commandHelp, generalHelp, suggestCommand } from './help.js';
import { reportError } from './report-error.js';

/** Help and version come from the command table before any command loads. */
async function answerHelp(argv: readonly string[]): Promise<number | undefined> {
  const [first, second] = argv;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (first === '--version' || first === '-v') {
    const { CLAW_VERSION } = await import('../config/index.js');
    process.stdout.write(`${CLAW_VERSION}\n`);
    return 0;
  }
  if (first === 'help' || (wantsHelp && (first === undefined || first.startsWith('-')))) {
    const topic = first === 'help' ? second : undefined;
    if (topic === undefined) {
      process.stdout.write(generalHelp());
      return 0;
    }
    const text = commandHelp(topic);
    if (text) {
      process.stdout.write(text);
      return 0;
    }
    return unknownCommand(topic);
  }
  if (wantsHelp && first !== undefined) {
    // Only the words before `--` count: `claw mcp add x -- tool --help` runs the command.
    const dashDash = argv.indexOf('--');
    if (dashDash !== -1 && argv.indexOf('--help') > dashDash && argv.indexOf('-h') > dashDash) return undefined;
    const text = commandHelp(first);
    if (!text) return unknownCommand(first);
    process.stdout.write(text);
    return 0;
  }
  return undefined;
}

function unknownCommand(name: string): number {
  const guess = suggestCommand(name);
  process.stderr.write(`claw: unknown command "${name}".${guess ? ` Did you mean \`claw ${guess}\`?` : ''} Run \`claw --help\` for the list.\n`);
  return 2;
}

async function main(): Promise<number> {
  quietOnClosedPipe();
  const argv = process.argv.slice(2);
  const helped = await answerHelp(argv);
  if (helped !== undefined) return helped;
  const { command: name, input } = parseArgvFast(argv) ?? (await import('./meow-argv.js')).parseArgvWithMeow(argv);
  const command = Object.hasOwn(commandTable, name) ? commandTable[name] : undefined;
  if (!command) return unknownCommand(name);
  const run = await command.load();
  return run(input);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportError(error);
  },
);
