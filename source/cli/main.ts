#!/usr/bin/env node
import * as nodeModule from 'node:module';
import { parseArgvFast } from './argv.js';
import { commandTable } from './command-table.js';
import { quietOnClosedPipe } from './closed-pipe.js';
import { suggestCommand } from './help.js';
import { helpText } from './help-text.js';

/** Help and version come from the command table before any command loads (the build precomputes them). */
function answerHelp(argv: readonly string[]): number | undefined {
  const [first, second] = argv;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const help = (name: string): string | undefined => (Object.hasOwn(helpText().commands, name) ? helpText().commands[name] : undefined);
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${helpText().version}\n`);
    return 0;
  }
  if (first === 'help' || (wantsHelp && (first === undefined || first.startsWith('-')))) {
    const topic = first === 'help' ? second : undefined;
    if (topic === undefined) {
      process.stdout.write(helpText().general);
      return 0;
    }
    const text = help(topic);
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
    const text = help(first);
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

/**
 * Node 22.1+ keeps the compiled code of the bundle's chunks on disk, so a
 * second start skips most parsing and compiling; Node 20 has no such cache.
 */
function enableCompileCache(): void {
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

async function main(): Promise<number> {
  enableCompileCache();
  quietOnClosedPipe();
  const argv = process.argv.slice(2);
  const helped = answerHelp(argv);
  if (helped !== undefined) return helped;
  const { command: name, input } = parseArgvFast(argv) ?? (await import('./meow-argv.js')).parseArgvWithMeow(argv);
  const command = Object.hasOwn(commandTable, name) ? commandTable[name] : undefined;
  if (!command) return unknownCommand(name);
  // The executable starts `gateway run` itself (bin.ts); a spelling only meow parses arrives here.
  if (name === 'gateway' && input.args[0] === 'run') (await import('./heap-policy.js')).applyGatewayHeapPolicy(await import('node:v8'));
  const run = await command.load();
  return run(input);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  // Loaded only on failure: it needs the error classes of config and protocol.
  async (error: unknown) => {
    process.exitCode = (await import('./report-error.js')).reportError(error);
  },
);
