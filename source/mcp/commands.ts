import type { SlashCommand } from '../agent/index.js';
import { ClawError, type CommandArgument } from '../protocol/index.js';
import { McpCallError, promptArguments, type McpManager, type McpPromptCommand } from '../tools/index.js';

/** A server that is slow to complete must not hold up `commands.list`. */
const COMPLETION_WAIT_MS = 1000;

async function argumentValues(manager: McpManager, prompt: McpPromptCommand): Promise<CommandArgument[]> {
  return Promise.all(
    prompt.arguments.map(async (arg): Promise<CommandArgument> => {
      let timer: NodeJS.Timeout | undefined;
      const values = await Promise.race([
        manager.completePrompt(prompt.server, prompt.prompt, arg.name, '').catch(() => [] as string[]),
        new Promise<string[]>((resolve) => {
          timer = setTimeout(() => resolve([]), COMPLETION_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      return { name: arg.name, required: arg.required, ...(values.length > 0 ? { values: values.map((value) => ({ value })) } : {}) };
    }),
  );
}

function promptText(messages: ReadonlyArray<{ role: 'user' | 'assistant'; text: string }>): string {
  return messages.map((message) => (message.role === 'assistant' ? `(The prompt's assistant part:)\n${message.text}` : message.text)).join('\n\n');
}

/**
 * Each prompt of a connected server as `/mcp__<server>__<prompt> args`:
 * arguments fill in declared order (or `name=value`), and the prompt's
 * messages start a turn in the session, as if the operator had typed them.
 */
export function mcpPromptSlashCommands(
  manager: McpManager,
  reserved: ReadonlySet<string>,
  startTurn: (sessionKey: string, text: string) => Promise<{ runId: string }>,
): SlashCommand[] {
  const commands: SlashCommand[] = [];
  const taken = new Set(reserved);
  for (const prompt of manager.prompts()) {
    // Command names are matched lower-case; a clash (or a built-in's name) keeps the first.
    const name = prompt.command.toLowerCase();
    if (taken.has(name)) continue;
    taken.add(name);
    commands.push({
      name,
      aliases: [],
      args: prompt.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' '),
      description: `[MCP ${prompt.server}] ${prompt.description ?? prompt.title ?? `prompt ${prompt.prompt}`}`,
      argument: () => argumentValues(manager, prompt),
      async run({ sessionKey, args }) {
        const filled = promptArguments(prompt, args);
        if (typeof filled === 'string') return { reply: filled };
        const result = await manager.getPrompt(prompt.server, prompt.prompt, filled).catch((error: unknown) => {
          throw error instanceof McpCallError ? new ClawError('bad_request', error.message) : error;
        });
        const { runId } = await startTurn(sessionKey, promptText(result.messages));
        return {
          reply: `Running the ${prompt.prompt} prompt of MCP server "${prompt.server}".`,
          data: { runId, server: prompt.server, prompt: prompt.prompt },
        };
      },
    });
  }
  return commands;
}
