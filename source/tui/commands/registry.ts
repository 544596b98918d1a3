import { abortCommand } from './abort.js';
import { approvalsCommand } from './approvals.js';
import { compactCommand } from './compact.js';
import { contextCommand } from './context.js';
import { helpCommand } from './help.js';
import { modelCommand } from './model.js';
import { newCommand } from './new.js';
import { quitCommand } from './quit.js';
import { resetCommand } from './reset.js';
import { runOnGateway } from './server-command.js';
import { searchCommand } from './search.js';
import { sessionsCommand } from './sessions.js';
import { statusCommand } from './status.js';
import { thinkCommand } from './think.js';
import type { CommandContext, SlashCommand } from './types.js';

export const slashCommands: readonly SlashCommand[] = [
  helpCommand, statusCommand, contextCommand, compactCommand, newCommand, resetCommand, modelCommand,
  thinkCommand, abortCommand, sessionsCommand, searchCommand, approvalsCommand, quitCommand,
];

export function findCommand(name: string): SlashCommand | undefined {
  const lower = name.toLowerCase();
  return slashCommands.find((c) => c.name === lower || c.aliases.includes(lower));
}

export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1] ?? '', args: match[2] ?? '' } : undefined;
}

export interface Completion {
  /** What replaces the input when chosen. */
  value: string;
  label: string;
  description: string;
}

/** Popup entries for what is typed so far; empty when the input is not a slash command. */
export function completions(text: string, context: CommandContext): Completion[] {
  if (!text.startsWith('/') || text.includes('\n')) return [];
  const parsed = parseSlash(text);
  if (!parsed) return [];
  const hasSpace = /\s/.test(text);
  if (!hasSpace) {
    return slashCommands
      .filter((c) => c.name.startsWith(parsed.name.toLowerCase()) || c.aliases.some((a) => a.startsWith(parsed.name.toLowerCase())))
      .map((c) => ({ value: `/${c.name}${c.args ? ' ' : ''}`, label: `/${c.name}${c.args ? ` ${c.args}` : ''}`, description: c.description }));
  }
  const command = findCommand(parsed.name);
  if (!command?.complete) return [];
  return command.complete(parsed.args, context).slice(0, 20).map((option) => ({ value: `/${command.name} ${option}`, label: option, description: '' }));
}

/** Runs a slash command; names the TUI does not know go to the gateway's commands.run. */
export async function runSlash(text: string, context: CommandContext): Promise<void> {
  const parsed = parseSlash(text);
  if (!parsed) return;
  const command = findCommand(parsed.name);
  // Pickers and popups answer in place; everything else answers in the chat, under its echo.
  if (!command?.quiet) context.controller.echoCommand(text.trim());
  try {
    if (command) await command.run(parsed.args, context);
    else await runOnGateway(text.trim(), context);
  } catch (error) {
    context.controller.error(error, command ? undefined : `/${parsed.name} is not a TUI command and the gateway could not run it; /help lists commands.`);
  }
}
