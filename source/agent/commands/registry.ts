import { ClawError, hasScope, type CommandInfo } from '../../protocol/index.js';
import type { Providers } from '../../providers/index.js';
import { abortCommand } from './abort.js';
import { compactCommand } from './compact.js';
import { contextCommand } from './context.js';
import { cronCommand } from './cron.js';
import { heartbeatCommand } from './heartbeat.js';
import { helpCommand } from './help.js';
import { modelCommand } from './model.js';
import { newCommand } from './new.js';
import { resetCommand } from './reset.js';
import { retryCommand } from './retry.js';
import { statusCommand } from './status.js';
import { thinkCommand } from './think.js';
import type { CommandContext, CommandReply, SlashCommand } from './types.js';
import { shellCommand } from './shell.js';
import { modeCommand } from './mode.js';

export const builtinCommands: readonly SlashCommand[] = [
  statusCommand,
  modelCommand,
  thinkCommand,
  modeCommand,
  newCommand,
  resetCommand,
  abortCommand,
  retryCommand,
  contextCommand,
  compactCommand,
  cronCommand,
  heartbeatCommand,
  shellCommand,
  helpCommand,
];

/** Splits `/name rest…` into the command word and its arguments. */
export function parseCommandText(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1].toLowerCase(), args: (match[2] ?? '').trim() };
}

/** Slash commands as data: a lookup by name or alias, never a switch. */
export class CommandRegistry {
  readonly #byName = new Map<string, SlashCommand>();
  readonly #commands: SlashCommand[] = [];

  constructor(commands: readonly SlashCommand[] = builtinCommands) {
    for (const command of commands) this.add(command);
  }

  add(command: SlashCommand): void {
    for (const name of [command.name, ...command.aliases]) {
      if (this.#byName.has(name)) throw new Error(`slash command "/${name}" is declared twice`);
      this.#byName.set(name, command);
    }
    this.#commands.push(command);
  }

  /** Whether `text` names a command of this registry (so a channel routes it here, not to the model). */
  knows(text: string): boolean {
    const parsed = parseCommandText(text);
    return parsed !== undefined && this.#byName.has(parsed.name);
  }

  list(): readonly SlashCommand[] {
    return this.#commands;
  }

  async info(providers: Providers): Promise<CommandInfo[]> {
    return Promise.all(
      this.#commands.map(async (command) => {
        const { name, aliases, args, description } = command;
        const argument = await command.argument?.(providers);
        return { name, aliases: [...aliases], args, description, ...(argument ? { arguments: Array.isArray(argument) ? argument : [argument] } : {}) };
      }),
    );
  }

  async run(text: string, context: Omit<CommandContext, 'args' | 'list'>): Promise<CommandReply> {
    const parsed = parseCommandText(text);
    if (!parsed) throw new ClawError('bad_request', `"${text}" is not a slash command. Commands start with /, e.g. /status; /help lists them.`);
    const command = this.#byName.get(parsed.name);
    if (!command) throw new ClawError('not_found', `Unknown command /${parsed.name}. Run /help for the list.`);
    if (command.ownerOnly && !hasScope(context.scopes ?? [], 'admin')) {
      throw new ClawError(
        'forbidden',
        `/${command.name} is for the owner of this assistant only; ask them to run it (from their own chat, the TUI or the claw CLI).`,
      );
    }
    return command.run({ ...context, args: parsed.args, list: () => this.list() });
  }
}
