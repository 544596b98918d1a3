import { ClawError } from '../../protocol/index.js';
import { commandRunId } from '../compaction/index.js';
import { compactionHistory, compactionUndoEntry, effectiveCompaction } from '../context/index.js';
import { formatTokens } from '../../protocol/index.js';
import type { CommandContext, CommandReply, SlashCommand } from './types.js';

async function undo({ sessionKey, host, contextWindow }: CommandContext): Promise<CommandReply> {
  const session = await host.turnSession(sessionKey);
  const found = effectiveCompaction(session.entries());
  if (!found) throw new ClawError('not_found', `${sessionKey} has no compaction to undo. /context shows the compaction history.`);
  await session.append(compactionUndoEntry(found.entry.id));
  await session.setCompactionCount(compactionHistory(session.entries()).length);
  const window = await contextWindow(session, commandRunId());
  const account = window ? await window.report() : undefined;
  const now = account ? ` The context is now ${formatTokens(account.used)} of ${formatTokens(account.window)} tokens.` : '';
  return {
    reply: `Undid the compaction of ${new Date(found.entry.timestamp).toISOString()}: the model sees the conversation it had summarised again.${now}`,
    data: { undone: found.entry.id, ...(account ? { used: account.used, window: account.window } : {}) },
  };
}

export const compactCommand: SlashCommand = {
  name: 'compact',
  aliases: [],
  args: '[instructions] | undo',
  description: 'Summarise older history now (optionally with instructions), or undo the last compaction.',
  async run(context) {
    const { sessionKey, args, host, contextWindow } = context;
    const summary = await host.session(sessionKey);
    if (summary.running) throw new ClawError('conflict', `A turn is running in ${sessionKey}; run /compact again when it finishes, or /abort it first.`);
    if (args.toLowerCase() === 'undo') return undo(context);
    const session = await host.turnSession(sessionKey);
    const window = await contextWindow(session, commandRunId());
    if (!window)
      throw new ClawError('unavailable', 'No model is configured to write the summary. Configure a provider (claw models list), then run /compact again.');
    const result = await window.compact({ instructions: args || undefined });
    if (!result.ok) {
      throw new ClawError(
        'unavailable',
        `Compaction did not happen: ${result.reason}. The transcript is unchanged; try /compact with instructions, or /new to start fresh.`,
      );
    }
    const appended =
      result.appendedIdentifiers.length > 0 ? `; ${result.appendedIdentifiers.length} identifiers the summary missed were appended verbatim` : '';
    return {
      reply: `Compacted ${result.summarisedMessages} older messages: ${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens${appended}. /compact undo restores them.`,
      data: {
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        summarisedMessages: result.summarisedMessages,
        attempts: result.attempts,
        firstKeptEntryId: result.firstKeptEntryId,
      },
    };
  },
};
