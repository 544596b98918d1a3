import { runNotice, type TranscriptEntry, type UserMessageEntry } from '../../protocol/index.js';
import { userItemId } from './live-reducers.js';
import type { ChatItem, ChatLog } from './state.js';
import { keepNewest } from './history-window.js';
import { childResultItems } from './child-results.js';

/** Turns transcript entries (oldest first) into chat items; tool results fill their call's card. */
export function entriesToItems(entries: readonly TranscriptEntry[]): ChatItem[] {
  const items: ChatItem[] = [];
  const toolIndex = new Map<string, number>();
  for (const entry of entries) {
    if (entry.type === 'compaction') {
      items.push({
        kind: 'compaction',
        id: entry.id,
        entryId: entry.id,
        before: entry.tokensBefore,
        ...(entry.tokensAfter !== undefined ? { after: entry.tokensAfter } : {}),
      });
      continue;
    }
    const notice = runNotice(entry);
    if (notice) {
      items.push({ kind: 'assistant', id: entry.id, entryId: entry.id, text: notice.text });
      continue;
    }
    if (entry.type !== 'message') continue;
    if (entry.role === 'user') {
      if (entry.meta?.synthetic) continue;
      const children = entry.meta?.channel === 'subagent' ? childResultItems(entry.content, entry.id, entry.id) : undefined;
      if (children) items.push(...children);
      else items.push(historyUser(entry));
    } else if (entry.role === 'assistant') {
      let text = '';
      for (const block of entry.content) {
        if (block.type === 'text') text += block.text;
        if (block.type === 'toolCall') {
          if (text.trim() !== '') items.push({ kind: 'assistant', id: `${entry.id}:${items.length}`, entryId: entry.id, text });
          text = '';
          toolIndex.set(block.id, items.length);
          items.push({ kind: 'tool', id: block.id, entryId: entry.id, name: block.name, args: argsLine(block.arguments), output: '', status: 'running' });
        }
      }
      // NO_REPLY is the agent declining to answer (heartbeats, memory flushes): never shown.
      if (text.trim() !== '' && text.trim() !== 'NO_REPLY')
        items.push({ kind: 'assistant', id: `${entry.id}:${items.length}`, entryId: entry.id, text, ...(entry.model ? { model: entry.model } : {}) });
      if (entry.stopReason === 'error' && entry.errorMessage)
        items.push({ kind: 'error', id: `${entry.id}:error`, entryId: entry.id, message: entry.errorMessage });
    } else {
      const index = toolIndex.get(entry.toolCallId);
      const card = index === undefined ? undefined : items[index];
      if (card?.kind === 'tool') items[index!] = { ...card, output: entry.content, status: entry.isError ? 'error' : 'done' };
    }
  }
  return items;
}

/**
 * Keyed by the message id when it has one, as the live echo is, so a page that
 * lands after the echo never shows the message twice. Channel messages name
 * their sender; the operator's own terminal messages need no label.
 */
function historyUser(entry: UserMessageEntry): ChatItem {
  const meta = entry.meta;
  const from = meta?.channel && meta.channel !== 'tui' ? (meta.senderName ?? meta.channel) : undefined;
  return {
    kind: 'user',
    id: meta?.messageId ? userItemId(meta.messageId) : entry.id,
    entryId: entry.id,
    text: entry.content,
    ...(from ? { from } : {}),
  };
}

function argsLine(args: Record<string, unknown>): string {
  const command = args.command ?? args.path ?? args.query ?? args.url;
  return typeof command === 'string' ? command.replace(/\s+/g, ' ') : JSON.stringify(args);
}

/** Puts the newest page in front of what arrived live while it loaded, still bounded (the newest items win). */
export function prependHistory(log: ChatLog, older: ChatItem[], hasMore: boolean): ChatLog {
  const seen = new Set(log.items.flatMap((item) => (item.entryId ? [item.id, item.entryId] : [item.id])));
  const fresh = older.filter((item) => !seen.has(item.id) && !(item.kind === 'assistant' && item.entryId && seen.has(item.entryId)));
  const items = fresh.concat(log.items);
  const first = fresh.find((item) => item.entryId) ?? log.items.find((item) => item.entryId);
  const base: ChatLog = { ...log, items, hasMore };
  if (first?.entryId) base.oldestEntryId = first.entryId;
  return keepNewest(base);
}
