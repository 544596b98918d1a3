import { statePaths } from '../../config/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { openSetupBackend } from '../setup/backend.js';
import { runInteractiveSetup } from '../setup/interactive.js';
import { Prompter } from '../setup/prompter.js';
import { runScriptedSetup } from '../setup/scripted.js';
import { describeSaved } from '../setup/summary.js';
import { stringFlag } from './flag-values.js';

const VALUE_FLAGS = ['provider', 'model', 'key-env', 'base-url', 'agent-name', 'user-name'];
const SWITCHES = ['yes', 'y', 'fallback', 'main', 'json'];

function unknownOption(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === 'setup') continue;
    const name = arg.replace(/^-+/, '').split('=')[0]!;
    if (VALUE_FLAGS.includes(name)) {
      if (!arg.includes('=')) i += 1;
      continue;
    }
    if (!arg.startsWith('-') || !SWITCHES.includes(name)) return arg;
  }
  return undefined;
}

export const run: CommandRun = async ({ argv, flags }) => {
  const stray = unknownOption(argv);
  if (stray) {
    process.stderr.write(`claw setup: unknown option or word "${stray}". See \`claw setup --help\`.\n`);
    return 2;
  }
  const paths = statePaths();
  const yes = argv.includes('--yes') || argv.includes('-y');
  const interactive = !yes && Boolean(process.stdin.isTTY);
  if (!yes && !interactive) {
    process.stderr.write(
      'claw setup: no terminal to ask in. For scripts pass everything and --yes, e.g.\n  claw setup --provider openai --model gpt-4.1 --key-env OPENAI_API_KEY --yes\n',
    );
    return 2;
  }
  const { backend, note } = await openSetupBackend(paths, process.env);
  if (note) process.stderr.write(`${note}\n`);
  try {
    if (interactive) {
      const prompter = new Prompter();
      try {
        return await runInteractiveSetup(prompter, backend, async () => {
          prompter.close();
          const gateway = await import('./gateway.js');
          await gateway.run({ args: ['install'], flags: { json: false }, argv: ['gateway', 'install'] });
        });
      } finally {
        prompter.close();
      }
    }
    const outcome = await runScriptedSetup(
      {
        provider: stringFlag(argv, 'provider'),
        model: stringFlag(argv, 'model'),
        keyEnv: stringFlag(argv, 'key-env'),
        baseUrl: stringFlag(argv, 'base-url'),
        role: argv.includes('--fallback') ? 'fallback' : argv.includes('--main') ? 'primary' : undefined,
        agentName: stringFlag(argv, 'agent-name'),
        userName: stringFlag(argv, 'user-name'),
      },
      backend,
      process.env,
    );
    if (!outcome.ok) {
      if (flags.json) printJson({ ok: false, error: outcome.error });
      else process.stderr.write(`claw setup: ${outcome.error}\n`);
      return outcome.code;
    }
    if (flags.json) printJson({ ok: true, applied: backend.where === 'gateway' ? 'live' : 'file', answer: outcome.answer, ...outcome.saved });
    else process.stdout.write(`✓ test request answered: ${JSON.stringify(outcome.answer)}\n${describeSaved(outcome.saved, backend.where)}\n`);
    return 0;
  } finally {
    backend.close();
  }
};
