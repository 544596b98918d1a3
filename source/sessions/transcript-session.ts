import { randomUUID } from 'node:crypto';
import { nodeFileOps, type FileOps, type Clock } from '../config/index.js';
import type { TranscriptEntry } from '../protocol/index.js';
import { RERUN_ENTRY, type NewTranscriptEntry, type SessionHandle, type SessionMeta, type SessionMetaPatch } from '../queue/index.js';
import { readEntriesSync, TranscriptAppender } from './transcript-file.js';

/** The note a restart appends before it runs an unanswered message again. */
export const RECOVERED_ENTRY = 'turn_recovered';

/** A final reply or a recorded failure: what ends a user message's turn. */
export function isOutcomeEntry(entry: TranscriptEntry): boolean {
  if (entry.type === 'custom') return entry.customType === 'turn_outcome';
  if (entry.type !== 'message' || entry.role !== 'assistant') return false;
  if (entry.stopReason === 'aborted' || entry.stopReason === 'error' || entry.stopReason === 'toolUse') return false;
  if (entry.content.some((block) => block.type === 'toolCall')) return false;
  return entry.content.some((block) => block.type === 'text' && block.text.trim().length > 0);
}

/**
 * A reply that left the machine (a chat platform) is marked by this entry,
 * flushed before the message's journal outcome: a restart re-sends a reply
 * found in the transcript without it, and never one that has it.
 */
export const REPLY_DELIVERED = 'reply_delivered';
/** What a channel writes when it gave up on sending a reply (already told to the user). */
const DELIVERY_FAILED = 'delivery_failed';

function userIndex(entries: readonly TranscriptEntry[], messageId: string): number {
  return entries.findIndex((e) => e.type === 'message' && e.role === 'user' && e.meta?.messageId === messageId);
}

export interface SessionOwner {
  meta(key: string): SessionMeta;
  update(key: string, patch: SessionMetaPatch & { updatedAt: number }): void;
}

/** Entries kept in memory per open session after a trim; older ones are read from disk when asked for. */
const KEEP_IN_MEMORY = 16;
/** Trim once this many are in memory, so trimming is not on every append. */
const TRIM_AT = 32;
/**
 * How long the full history stays held after it was last asked for. A
 * conversation's turns come seconds apart and each needs all of it: held,
 * it is neither read and validated from disk again after a garbage
 * collection nor re-encoded for the model (those caches key on its entries).
 */
const HOLD_FULL_MS = 30_000;
/**
 * At most this many sessions hold their full history at once, the most
 * recently asked: a gateway with hundreds of busy sessions would otherwise
 * keep every history in memory (its RSS grew with every turn). The others
 * keep a weak reference, read again from disk only after a collection.
 */
const MAX_HELD = 24;
const holders = new Set<{ release(): void }>();

/**
 * One open transcript: its recent entries in memory (a bounded window, so
 * memory does not grow with the number of turns), appends going straight to
 * the file. The full history is read from the file on demand, and kept only
 * as long as someone holds it or HOLD_FULL_MS after it was last asked for
 * (never once the session is suspended).
 */
export class TranscriptSession implements SessionHandle {
  private readonly messageIds = new Set<string>();
  /** Undefined while suspended: the next append opens the file again. */
  private appender: TranscriptAppender | undefined;
  /** The appender a suspend is still flushing and closing. */
  private closing: Promise<void> | undefined;
  private closed = false;
  /** The newest entries, oldest first. */
  private recent: TranscriptEntry[];
  /** How many older entries are on disk only. */
  private trimmed = 0;
  private full: WeakRef<TranscriptEntry[]> | undefined;
  private held: TranscriptEntry[] | undefined;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly key: string,
    readonly agentId: string,
    readonly sessionId: string,
    private readonly path: string,
    loaded: TranscriptEntry[],
    private readonly owner: SessionOwner,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly fs: FileOps = nodeFileOps,
  ) {
    this.appender = new TranscriptAppender(path, fs);
    for (const entry of loaded) this.noteMessageId(entry);
    this.recent = loaded;
    this.trim();
  }

  /** Every entry of the transcript, oldest first (older ones read from disk when they are not in memory). */
  entries(): readonly TranscriptEntry[] {
    if (this.trimmed === 0) return this.recent;
    const cached = this.held ?? this.full?.deref();
    if (cached) return this.hold(cached);
    const all = [...readEntriesSync(this.path).slice(0, this.trimmed), ...this.recent];
    this.full = new WeakRef(all);
    return this.hold(all);
  }

  private hold(all: TranscriptEntry[]): TranscriptEntry[] {
    this.held = all;
    const holder = this.#holder;
    holders.delete(holder);
    holders.add(holder);
    if (holders.size > MAX_HELD) holders.values().next().value?.release();
    if (this.holdTimer) this.holdTimer.refresh();
    else {
      this.holdTimer = setTimeout(() => this.release(), HOLD_FULL_MS);
      this.holdTimer.unref();
    }
    return all;
  }

  /** Leaves the full history to the garbage collector once no one holds it. */
  private release(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.held = undefined;
    holders.delete(this.#holder);
  }

  readonly #holder = { release: (): void => this.release() };

  /** Entries held in memory right now (for tests and figures). */
  inMemory(): number {
    return this.recent.length;
  }

  meta(): SessionMeta {
    return this.owner.meta(this.key);
  }

  append(...inputs: NewTranscriptEntry[]): TranscriptEntry[] {
    if (inputs.length === 0) return [];
    const timestamp = this.clock.now();
    let parentId = this.recent[this.recent.length - 1]?.id ?? null;
    const stamped = inputs.map((input) => {
      const entry = { ...input, id: randomUUID(), parentId, timestamp } as TranscriptEntry;
      parentId = entry.id;
      return entry;
    });
    if (this.closed) throw new Error(`The transcript ${this.path} was closed (its session was reset or deleted); open the session again to write to it.`);
    this.appender ??= new TranscriptAppender(this.path, this.fs);
    this.appender.append(stamped);
    const full = this.full?.deref();
    for (const entry of stamped) {
      this.recent.push(entry);
      full?.push(entry);
      this.noteMessageId(entry);
    }
    this.trim();
    this.owner.update(this.key, { updatedAt: timestamp });
    return stamped;
  }

  updateMeta(patch: SessionMetaPatch): void {
    this.owner.update(this.key, { ...patch, updatedAt: this.clock.now() });
  }

  hasMessage(messageId: string): boolean {
    return this.messageIds.has(messageId);
  }

  /**
   * Whether the user message `messageId` already got its one outcome: a
   * final assistant reply (text, including a deliberate NO_REPLY) or a
   * recorded failure after it. An assistant message that only calls tools,
   * or one cut off by an abort or error, is not an answer: a crash during
   * its tool round leaves the message to run again.
   */
  isAnswered(messageId: string): boolean {
    if (!this.messageIds.has(messageId)) return false;
    const entries = this.around(messageId);
    const index = userIndex(entries, messageId);
    for (let i = index + 1; i < entries.length; i += 1) if (isOutcomeEntry(entries[i]!)) return true;
    return false;
  }

  /**
   * The text reply to `messageId` that a channel still owes its chat: found
   * in the transcript, but with neither a delivery mark nor a failure note.
   */
  undeliveredReply(messageId: string): string | undefined {
    if (!this.messageIds.has(messageId)) return undefined;
    const entries = this.around(messageId);
    const after = entries.slice(userIndex(entries, messageId) + 1);
    // The mark comes once the send returned, by then possibly after later messages of the session.
    const settled = after.some(
      (entry) =>
        entry.type === 'custom' &&
        (entry.customType === REPLY_DELIVERED || entry.customType === DELIVERY_FAILED) &&
        (entry.data as { messageId?: unknown } | null)?.messageId === messageId,
    );
    if (settled) return undefined;
    let reply: string | undefined;
    for (const entry of after) {
      if (entry.type === 'message' && entry.role === 'user') break;
      if (entry.type === 'message' && entry.role === 'assistant' && isOutcomeEntry(entry)) {
        reply = entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      }
    }
    return reply;
  }

  /** How many times a restart already re-ran `messageId` (the `turn_recovered` notes after it). */
  recoveries(messageId: string): number {
    return this.#notes(messageId, RECOVERED_ENTRY);
  }

  /** How many times `messageId` started running again after a crash (the `turn_rerun` notes after it). */
  reruns(messageId: string): number {
    return this.#notes(messageId, RERUN_ENTRY);
  }

  #notes(messageId: string, customType: string): number {
    if (!this.messageIds.has(messageId)) return 0;
    const entries = this.around(messageId);
    return entries
      .slice(userIndex(entries, messageId) + 1)
      .filter((e) => e.type === 'custom' && e.customType === customType && (e.data as { messageId?: unknown } | null)?.messageId === messageId).length;
  }

  async flush(): Promise<void> {
    await this.closing;
    await this.appender?.flush();
  }

  /**
   * Frees the file handle of an idle session and leaves the object usable:
   * whoever still holds it may append, which opens the file again.
   */
  suspend(): Promise<void> {
    this.release();
    const appender = this.appender;
    this.appender = undefined;
    if (!appender) return this.closing ?? Promise.resolve();
    const closing = appender.close().finally(() => {
      if (this.closing === closing) this.closing = undefined;
    });
    this.closing = closing;
    return closing;
  }

  /** For good: a later append fails instead of writing to a transcript that was archived. */
  close(): Promise<void> {
    this.closed = true;
    return this.suspend();
  }

  /** Whether the file handle is open (false once suspended or closed). */
  isOpen(): boolean {
    return this.appender !== undefined;
  }

  /** The in-memory window when it holds the user message `messageId`, else the whole transcript. */
  private around(messageId: string): readonly TranscriptEntry[] {
    return userIndex(this.recent, messageId) >= 0 ? this.recent : this.entries();
  }

  /**
   * Drops the oldest entries from memory. The array callers got from
   * entries() is not cut under them: while it is complete and still held, it
   * stays the cached full history and keeps growing with appends.
   */
  private trim(): void {
    if (this.recent.length < TRIM_AT) return;
    const before = this.recent;
    const drop = before.length - KEEP_IN_MEMORY;
    if (this.trimmed === 0 && !this.full?.deref()) this.full = new WeakRef(before);
    this.recent = before.slice(drop);
    this.trimmed += drop;
  }

  private noteMessageId(entry: TranscriptEntry): void {
    if (entry.type === 'message' && entry.role === 'user' && entry.meta?.messageId) this.messageIds.add(entry.meta.messageId);
  }
}
