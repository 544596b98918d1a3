import { agentCommand } from './agent.js';
import type { CommandInfo } from '../../protocol/index.js';
import { ClawError } from '../../protocol/index.js';
import { approvalsCommand } from './approvals.js';
import { helpCommand } from './help.js';
import { modelCommand } from './model.js';
import { quitCommand } from './quit.js';
import { runOnGateway } from './server-command.js';
import { searchCommand } from './search.js';
import { mentionCompletions } from './mention-completions.js';
import { sessionsCommand } from './sessions.js';
import { setupCommand } from './setup.js';
import type { CommandContext, SlashCommand } from './types.js';

/**
 * The TUI's own commands: those that act on the terminal (quit, panes,
 * pickers). Every other slash command is the gateway's (`commands.list`,
 * `commands.run`), so the TUI, the CLI and channels run the same ones.
 */
export const slashCommands: readonly SlashCommand[] = [
  helpCommand,
  modelCommand,
  sessionsCommand,
  searchCommand,
  approvalsCommand,
  setupCommand,
  agentCommand,
  quitCommand,
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
  const mentions = mentionCompletions(text, context.store.getState());
  if (mentions) return mentions;
  if (!text.startsWith('/') || text.includes('\n')) return [];
  const parsed = parseSlash(text);
  if (!parsed) return [];
  const hasSpace = /\s/.test(text);
  const local = new Set(slashCommands.flatMap((c) => [c.name, ...c.aliases]));
  const gateway = context.controller.commands().filter((c) => !local.has(c.name));
  const prefix = parsed.name.toLowerCase();
  if (!hasSpace) {
    return [...slashCommands, ...gateway]
      .filter((c) => c.name.startsWith(prefix) || c.aliases.some((a) => a.startsWith(prefix)))
      .map((c) => ({ value: `/${c.name}${c.args ? ' ' : ''}`, label: `/${c.name}${c.args ? ` ${c.args}` : ''}`, description: c.description }));
  }
  const command = findCommand(parsed.name);
  if (command?.complete) {
    return command
      .complete(parsed.args, context)
      .slice(0, 20)
      .map((option) => ({ value: `/${command.name} ${option}`, label: option, description: '' }));
  }
  const served = gateway.find((c) => c.name === prefix || c.aliases.includes(prefix));
  if (served?.arguments && served.arguments.length > 1) return wordCompletions(served, parsed.args);
  const values = served?.arguments?.[0]?.values ?? [];
  return values
    .filter((v) => v.value.startsWith(parsed.args))
    .slice(0, 20)
    .map((v) => ({ value: `/${served!.name} ${v.value}`, label: v.value, description: v.description ?? '' }));
}

/** For a command of several arguments (an MCP prompt): values of the argument whose word is being typed. */
function wordCompletions(command: CommandInfo, args: string): Completion[] {
  const words = args.split(/\s+/);
  const typed = words.pop() ?? '';
  const argument = command.arguments?.[words.length];
  const head = `/${command.name} ${words.map((word) => `${word} `).join('')}`;
  return (argument?.values ?? [])
    .filter((v) => v.value.startsWith(typed))
    .slice(0, 20)
    .map((v) => ({ value: `${head}${v.value} `, label: v.value, description: `${argument!.name}${v.description ? ` · ${v.description}` : ''}` }));
}

/** Runs a slash command; names the TUI does not know go to the gateway's commands.run. */
export async function runSlash(text: string, context: CommandContext): Promise<void> {
  const parsed = parseSlash(text);
  if (!parsed) return;
  const command = findCommand(parsed.name);
  // Pickers and popups answer in place; everything else answers in the chat, under its echo.
  const key = context.store.getState().currentKey;
  const echoId = command?.quiet ? undefined : context.controller.echoCommand(text.trim(), key);
  try {
    if (command) await command.run(parsed.args, context);
    else await runOnGateway(text.trim(), context, echoId);
  } catch (error) {
    // The gateway's own refusals say what to do; only a failure to reach it needs a hint here.
    const hint =
      command || error instanceof ClawError ? undefined : `/${parsed.name} runs on the gateway, which did not answer; \`claw status\` shows whether it is up.`;
    context.controller.answer(echoId, { error, hint }, key);
  }
}
