import { randomUUID } from 'node:crypto';
import { nodeFileOps, type FileOps } from '../config/index.js';
import type { TranscriptEntry } from '../protocol/index.js';
import type { NewTranscriptEntry, SessionHandle, SessionMeta, SessionMetaPatch } from '../queue/index.js';
import { TranscriptAppender } from './transcript-file.js';

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

export interface SessionOwner {
  meta(key: string): SessionMeta;
  update(key: string, patch: SessionMetaPatch & { updatedAt: number }): void;
}

/** One open transcript: its entries in memory, appends going straight to the file. */
export class TranscriptSession implements SessionHandle {
  private readonly messageIds = new Set<string>();
  private readonly appender: TranscriptAppender;

  constructor(
    readonly key: string,
    readonly agentId: string,
    readonly sessionId: string,
    path: string,
    private readonly loaded: TranscriptEntry[],
    private readonly owner: SessionOwner,
    private readonly now: () => number,
    fs: FileOps = nodeFileOps,
  ) {
    this.appender = new TranscriptAppender(path, fs);
    for (const entry of loaded) this.noteMessageId(entry);
  }

  entries(): readonly TranscriptEntry[] {
    return this.loaded;
  }

  meta(): SessionMeta {
    return this.owner.meta(this.key);
  }

  append(...inputs: NewTranscriptEntry[]): TranscriptEntry[] {
    if (inputs.length === 0) return [];
    const timestamp = this.now();
    let parentId = this.loaded[this.loaded.length - 1]?.id ?? null;
    const stamped = inputs.map((input) => {
      const entry = { ...input, id: randomUUID(), parentId, timestamp } as TranscriptEntry;
      parentId = entry.id;
      return entry;
    });
    this.appender.append(stamped);
    for (const entry of stamped) {
      this.loaded.push(entry);
      this.noteMessageId(entry);
    }
    this.owner.update(this.key, { updatedAt: timestamp });
    return stamped;
  }

  updateMeta(patch: SessionMetaPatch): void {
    this.owner.update(this.key, { ...patch, updatedAt: this.now() });
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
    const index = this.loaded.findIndex((e) => e.type === 'message' && e.role === 'user' && e.meta?.messageId === messageId);
    if (index < 0) return false;
    for (let i = index + 1; i < this.loaded.length; i += 1) if (isOutcomeEntry(this.loaded[i]!)) return true;
    return false;
  }

  /** How many times a restart already re-ran `messageId` (the `turn_recovered` notes after it). */
  recoveries(messageId: string): number {
    const index = this.loaded.findIndex((e) => e.type === 'message' && e.role === 'user' && e.meta?.messageId === messageId);
    if (index < 0) return 0;
    return this.loaded.slice(index + 1).filter((e) => e.type === 'custom' && e.customType === RECOVERED_ENTRY && (e.data as { messageId?: unknown } | null)?.messageId === messageId).length;
  }

  flush(): Promise<void> {
    return this.appender.flush();
  }

  close(): Promise<void> {
    return this.appender.close();
  }

  private noteMessageId(entry: TranscriptEntry): void {
    if (entry.type === 'message' && entry.role === 'user' && entry.meta?.messageId) this.messageIds.add(entry.meta.messageId);
  }
}
