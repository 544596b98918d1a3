import type { CommandInput } from './command.js';

/** Flags every command understands; meow gets the same table. */
export const knownFlags = {
  port: { type: 'number' },
  bind: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export interface ParsedArgv {
  /** The command name, '' when argv has no words. */
  command: string;
  input: CommandInput;
}

/**
 * Parses argv without meow when it holds only words and known flags, which
 * covers the hot commands (`claw status`, `claw gateway …`): importing meow
 * costs about a third of the `claw status` budget. Returns undefined for
 * anything else (--help, --version, unknown flags, `--`), and meow takes over.
 */
export function parseArgvFast(argv: readonly string[]): ParsedArgv | undefined {
  const words: string[] = [];
  const flags: CommandInput['flags'] = { json: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') return undefined;
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (name === 'json' && eq === -1) {
      flags.json = true;
      continue;
    }
    if (name !== 'port' && name !== 'bind') return undefined;
    const value = eq === -1 ? argv[i + 1] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('-'))) return undefined;
    if (eq === -1) i += 1;
    if (name === 'bind') {
      flags.bind = value;
      continue;
    }
    const port = Number(value);
    if (!Number.isFinite(port)) return undefined;
    flags.port = port;
  }
  const [command = '', ...args] = words;
  return { command, input: { args, flags, argv: [...argv] } };
}
