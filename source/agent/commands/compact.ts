import { ClawError } from '../../protocol/index.js';
import { commandRunId, type CompactionResult } from '../compaction/index.js';
import { formatReview, noCompaction, reviewCompaction } from './compact-review.js';
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

async function review({ sessionKey, host }: CommandContext, json: boolean): Promise<CommandReply> {
  const session = await host.turnSession(sessionKey);
  const found = reviewCompaction(session.entries());
  if (!found) throw noCompaction(sessionKey);
  const data = {
    compactionId: found.compaction.id,
    inForce: found.inForce,
    summary: found.compaction.summary,
    summarised: found.summarised.map((message) => ({ id: message.id, role: message.role })),
    identifiers: found.identifiers,
  };
  return { reply: json ? JSON.stringify(data, null, 2) : formatReview(found), data };
}

/**
 * `/compact redo [instructions]`: the compaction in force is undone and the
 * history compacted again; if that fails, the old summary is put back, so a
 * redo never leaves the session worse off.
 */
async function redo(context: CommandContext, instructions: string): Promise<CommandReply> {
  const { sessionKey, host, contextWindow } = context;
  const session = await host.turnSession(sessionKey);
  if (!reviewCompaction(session.entries())) throw noCompaction(sessionKey);
  const window = await contextWindow(session, commandRunId());
  if (!window)
    throw new ClawError('unavailable', 'No model is configured to write the summary. Configure a provider (claw models list), then run /compact again.');
  const previous = effectiveCompaction(session.entries())?.entry;
  if (previous) await session.append(compactionUndoEntry(previous.id));
  const result = await window.compact({ instructions: instructions || undefined });
  if (!result.ok) {
    if (previous) {
      const { summary, firstKeptEntryId, tokensBefore, tokensAfter } = previous;
      await session.append({ type: 'compaction', summary, firstKeptEntryId, tokensBefore, ...(tokensAfter !== undefined ? { tokensAfter } : {}) });
    }
    await session.setCompactionCount(compactionHistory(session.entries()).length);
    throw new ClawError('unavailable', `Compaction did not happen: ${result.reason}. The previous summary is still in force.`);
  }
  return compacted(result, instructions ? ` following "${instructions}"` : ' again');
}

function compacted(result: Extract<CompactionResult, { ok: true }>, how = ''): CommandReply {
  const appended = result.appendedIdentifiers.length > 0 ? `; ${result.appendedIdentifiers.length} identifiers the summary missed were appended verbatim` : '';
  return {
    reply: `Compacted ${result.summarisedMessages} older messages${how}: ${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens${appended}. /compact review shows it; /compact undo restores them.`,
    data: {
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      summarisedMessages: result.summarisedMessages,
      attempts: result.attempts,
      firstKeptEntryId: result.firstKeptEntryId,
    },
  };
}

export const compactCommand: SlashCommand = {
  name: 'compact',
  aliases: [],
  args: '[instructions] | undo | review [json] | redo [instructions]',
  description: 'Summarise older history now (optionally with instructions); review the last compaction, undo it, or redo it with instructions.',
  async run(context) {
    const { sessionKey, args, host, contextWindow } = context;
    const [verb = '', ...rest] = args.trim().split(/\s+/);
    const lower = verb.toLowerCase();
    if (lower === 'review') return review(context, rest[0]?.toLowerCase() === 'json');
    const summary = await host.session(sessionKey);
    if (summary.running) throw new ClawError('conflict', `A turn is running in ${sessionKey}; run /compact again when it finishes, or /abort it first.`);
    if (lower === 'undo' && rest.length === 0) return undo(context);
    if (lower === 'redo') return redo(context, args.trim().slice(verb.length).trim());
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
    return compacted(result);
  },
};
