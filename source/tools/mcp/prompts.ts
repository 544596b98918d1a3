import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './connection.js';
import { mcpToolName } from './names.js';

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** A server prompt as a slash command: `/mcp__<server>__<prompt> args`. */
export interface McpPromptCommand {
  /** The command name without the slash. */
  command: string;
  server: string;
  prompt: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

export interface McpPromptMessage {
  role: 'user' | 'assistant';
  text: string;
}

export function promptCommand(server: string, prompt: Prompt): McpPromptCommand {
  const command: McpPromptCommand = {
    command: mcpToolName(server, prompt.name),
    server,
    prompt: prompt.name,
    arguments: (prompt.arguments ?? []).map((arg) => ({
      name: arg.name,
      required: arg.required ?? false,
      ...(arg.description ? { description: arg.description } : {}),
    })),
  };
  if (prompt.title) command.title = prompt.title;
  if (prompt.description) command.description = prompt.description;
  return command;
}

export function promptCommands(connections: McpConnection[]): McpPromptCommand[] {
  return connections.filter((c) => c.ready).flatMap((c) => c.catalog.prompts.map((prompt) => promptCommand(c.name, prompt)));
}

/**
 * Fills a prompt's arguments from the words after the command, in declared
 * order; `name=value` words set an argument by name. The last declared
 * argument takes the rest of the line, so free text needs no quoting.
 */
export function promptArguments(command: McpPromptCommand, line: string): Record<string, string> | string {
  const declared = command.arguments;
  const result: Record<string, string> = {};
  const words = line.trim() === '' ? [] : line.trim().split(/\s+/);
  const positional: string[] = [];
  for (const word of words) {
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(0, eq) : undefined;
    if (name !== undefined && declared.some((arg) => arg.name === name)) result[name] = word.slice(eq + 1);
    else positional.push(word);
  }
  const open = declared.filter((arg) => result[arg.name] === undefined);
  open.forEach((arg, index) => {
    const value = index === open.length - 1 ? positional.slice(index).join(' ') : positional[index];
    if (value) result[arg.name] = value;
  });
  if (positional.length > 0 && open.length === 0)
    return `/${command.command} takes ${declared.length === 0 ? 'no arguments' : `only ${declared.map((a) => a.name).join(', ')}`}; "${positional.join(' ')}" is left over.`;
  const missing = declared.filter((arg) => arg.required && result[arg.name] === undefined).map((arg) => arg.name);
  if (missing.length > 0)
    return `/${command.command} needs ${missing.join(', ')}: /${command.command} ${declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')}`;
  return result;
}

/** A prompt's messages as text: what a slash command puts into the conversation. */
export function promptMessages(result: GetPromptResult): McpPromptMessage[] {
  return result.messages.map((message) => {
    const content = message.content;
    const text =
      content.type === 'text'
        ? content.text
        : content.type === 'resource'
          ? 'text' in content.resource
            ? content.resource.text
            : `[resource ${content.resource.uri}, binary, not shown]`
          : content.type === 'resource_link'
            ? `[resource link ${content.uri}]`
            : `[${content.type} ${content.mimeType}, not shown]`;
    return { role: message.role, text };
  });
}
