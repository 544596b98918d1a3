import { backgroundMessageIds, quietRunIds, type CompactionEntry, type TranscriptEntry } from '../../protocol/index.js';
import type { HistoryMessage } from '../turn-types.js';

/**
 * `/compact undo` appends a custom entry naming the compaction it reverts;
 * the compaction itself stays on disk, assembly just stops honouring it.
 */
export const COMPACTION_UNDO = 'compaction_undo';

export interface CompactionUndoData {
  compactionId: string;
}

export const SUMMARY_PREFIX = '[Summary of the earlier conversation]\n';

export function compactionUndoEntry(compactionId: string): Pick<Extract<TranscriptEntry, { type: 'custom' }>, 'type' | 'customType' | 'data'> {
  return { type: 'custom', customType: COMPACTION_UNDO, data: { compactionId } satisfies CompactionUndoData };
}

function undoneId(entry: TranscriptEntry): string | undefined {
  if (entry.type !== 'custom' || entry.customType !== COMPACTION_UNDO) return undefined;
  const data = entry.data as Partial<CompactionUndoData> | null;
  return typeof data?.compactionId === 'string' ? data.compactionId : undefined;
}

function isMessage(entry: TranscriptEntry): entry is HistoryMessage {
  return entry.type === 'message';
}

export interface AssembledContext {
  /** The compaction in force (the latest one not undone), if any. */
  compaction: CompactionEntry | undefined;
  /** Index in the entries of the first message the model sees verbatim. */
  start: number;
  /** Summary (as a synthetic user message) followed by the kept messages. */
  messages: HistoryMessage[];
  /**
   * Index in `messages` of the first one appended after the compaction: usage
   * reported on earlier replies measured the context before it was compacted.
   */
  freshFrom: number;
}

/** The compaction in force: the latest one that no later undo entry names. */
export function effectiveCompaction(entries: readonly TranscriptEntry[]): { entry: CompactionEntry; index: number } | undefined {
  const undone = new Set<string>();
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    const undo = undoneId(entry);
    if (undo !== undefined) undone.add(undo);
    else if (entry.type === 'compaction' && !undone.has(entry.id)) return { entry, index };
  }
  return undefined;
}

/** The summary as the model sees it: a user message at the head of the history. */
export function summaryMessage(entry: CompactionEntry): HistoryMessage {
  return {
    id: entry.id,
    parentId: entry.parentId,
    timestamp: entry.timestamp,
    type: 'message',
    role: 'user',
    content: SUMMARY_PREFIX + entry.summary,
    meta: { synthetic: 'compaction' },
  };
}

export function isSummaryMessage(message: HistoryMessage): boolean {
  return message.role === 'user' && message.meta?.synthetic === 'compaction';
}

/**
 * What the model sees of a transcript: the summary of the compaction in force
 * and the messages from its first kept entry on; without one, every message.
 * Custom and model-change entries are bookkeeping, not conversation.
 */
export function assembleContext(entries: readonly TranscriptEntry[]): AssembledContext {
  const assembled = assembledOnce(entries);
  return { ...assembled, messages: [...assembled.messages] };
}

/**
 * The last view of each transcript array (a session's entries are one array
 * that appends push onto): a turn assembles its history several times, and
 * what it appended is only messages, which the view takes as they are.
 */
const views = new WeakMap<readonly TranscriptEntry[], { length: number; last: TranscriptEntry; view: AssembledContext; extensible: boolean }>();

function assembledOnce(entries: readonly TranscriptEntry[]): AssembledContext {
  const cached = views.get(entries);
  let view: AssembledContext | undefined;
  let extensible = false;
  if (cached && entries.length >= cached.length && entries[cached.length - 1] === cached.last) {
    if (entries.length === cached.length) return cached.view;
    const added = entries.slice(cached.length);
    // Compactions, undos and quiet-run marks change what earlier entries mean, and a
    // message may fall inside a hidden run: those views are assembled anew.
    if (cached.extensible && added.every(isMessage)) {
      view = { ...cached.view, messages: [...cached.view.messages, ...added] };
      extensible = true;
    }
  }
  if (!view) ({ view, extensible } = assembleFresh(entries));
  const last = entries[entries.length - 1];
  if (last) views.set(entries, { length: entries.length, last, view, extensible });
  return view;
}

/**
 * Every message of a transcript, compactions ignored (an engine that keeps the
 * whole conversation), without the background runs that ended quietly.
 */
export function uncompactedMessages(entries: readonly TranscriptEntry[]): HistoryMessage[] {
  const messages = entries.filter(isMessage);
  const quiet = quietRunIds(entries);
  if (quiet.size === 0) return messages;
  const hidden = backgroundMessageIds(entries, (promptId) => quiet.has(promptId));
  return messages.filter((message) => !hidden.has(message.id));
}

/** The view, and whether appended messages can simply join it (nothing is hidden). */
function assembleFresh(entries: readonly TranscriptEntry[]): { view: AssembledContext; extensible: boolean } {
  const assembled = assembleAll(entries);
  const quiet = quietRunIds(entries);
  if (quiet.size === 0) return { view: assembled, extensible: true };
  // Heartbeat and cron runs that ended quietly said nothing worth remembering.
  const hidden = backgroundMessageIds(entries, (promptId) => quiet.has(promptId));
  const messages = assembled.messages.filter((message) => !hidden.has(message.id));
  const freshFrom = assembled.messages.slice(0, assembled.freshFrom).filter((message) => !hidden.has(message.id)).length;
  return { view: { ...assembled, messages, freshFrom }, extensible: false };
}

function assembleAll(entries: readonly TranscriptEntry[]): AssembledContext {
  const found = effectiveCompaction(entries);
  if (!found) return { compaction: undefined, start: 0, messages: entries.filter(isMessage), freshFrom: 0 };
  let start = found.index + 1;
  // The kept entry precedes its compaction: search backwards from there.
  for (let index = found.index - 1; index >= 0; index -= 1) {
    if (entries[index]!.id === found.entry.firstKeptEntryId) {
      start = index;
      break;
    }
  }
  const messages: HistoryMessage[] = [summaryMessage(found.entry)];
  let freshFrom = -1;
  for (let index = start; index < entries.length; index += 1) {
    const entry = entries[index]!;
    if (index > found.index && freshFrom < 0) freshFrom = messages.length;
    if (isMessage(entry)) messages.push(entry);
  }
  return { compaction: found.entry, start, messages, freshFrom: freshFrom < 0 ? messages.length : freshFrom };
}

export interface CompactionRecord {
  id: string;
  at: number;
  before: number;
  after: number;
}

const histories = new WeakMap<readonly TranscriptEntry[], { length: number; last: TranscriptEntry; records: CompactionRecord[] }>();

/** Compactions still in force, oldest first, for the `context` event and `/status`. */
export function compactionHistory(entries: readonly TranscriptEntry[]): CompactionRecord[] {
  const cached = histories.get(entries);
  const last = entries[entries.length - 1];
  let records: CompactionRecord[] | undefined;
  // Every turn publishes it; only compaction and custom (undo) entries change it.
  if (cached && entries.length >= cached.length && entries[cached.length - 1] === cached.last) {
    let changed = false;
    for (let index = cached.length; index < entries.length && !changed; index += 1)
      changed = entries[index]!.type === 'compaction' || entries[index]!.type === 'custom';
    if (!changed) records = cached.records;
  }
  records ??= compactionsInForce(entries);
  if (last) histories.set(entries, { length: entries.length, last, records });
  return [...records];
}

function compactionsInForce(entries: readonly TranscriptEntry[]): CompactionRecord[] {
  const undone = new Set<string>();
  for (const entry of entries) {
    const undo = undoneId(entry);
    if (undo !== undefined) undone.add(undo);
  }
  return entries.flatMap((entry) =>
    entry.type === 'compaction' && !undone.has(entry.id)
      ? [{ id: entry.id, at: entry.timestamp, before: entry.tokensBefore, after: entry.tokensAfter ?? entry.tokensBefore }]
      : [],
  );
}
