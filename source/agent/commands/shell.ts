import { ClawError, type CommandData } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

/** What the model reads of a command the owner ran: theirs, marked as such, its output fenced as the exec tool fences it. */
function shellNote(command: string, output: string): string {
  return `[The owner ran a shell command in the workspace; its output is for you to use.]\n$ ${command}\n${output}`;
}

/**
 * `/sh COMMAND` (`!COMMAND` in the TUI): runs through the exec tool as the
 * owner — the same sandbox, policy and approvals as the agent's calls — shows
 * the output, and adds it to the conversation so the next turn knows it.
 */
export const shellCommand: SlashCommand = {
  name: 'sh',
  aliases: ['shell'],
  args: 'COMMAND',
  description: 'Run a command in the workspace (sandboxed, approvals as for the agent); its output joins the conversation. In the TUI: !COMMAND',
  ownerOnly: true,
  async run({ sessionKey, args, host, runShell }) {
    const command = args.trim();
    if (!command) throw new ClawError('bad_request', 'Usage: /sh COMMAND (in the TUI, !COMMAND).');
    if (host.running?.(sessionKey)) throw new ClawError('conflict', 'A turn is running in this session: wait for it to end (or /abort), then run the command.');
    const session = await host.turnSession(sessionKey);
    const { result, output } = await runShell(session, command);
    await session.append({ type: 'message', role: 'user', content: shellNote(command, result.content), meta: { synthetic: 'shell' } });
    const exitCode = typeof result.details?.exitCode === 'number' ? result.details.exitCode : undefined;
    const shown = output.trimEnd() || (result.isError ? result.content : '(no output)');
    return {
      reply: `$ ${command}\n${shown}${exitCode !== undefined && exitCode !== 0 ? `\n[exit code ${exitCode}]` : ''}`,
      data: { exitCode: exitCode ?? null, isError: result.isError } satisfies CommandData<'sh'>,
    };
  },
};
