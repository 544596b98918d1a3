import { randomUUID } from 'node:crypto';
import type { TranscriptEntry } from '../protocol/index.js';
import type { NewTranscriptEntry, SessionHandle, SessionMeta, SessionMetaPatch } from '../queue/index.js';
import { TranscriptAppender } from './transcript-file.js';

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
  ) {
    this.appender = new TranscriptAppender(path);
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
   * Whether the user message `messageId` already got an answer: a reply or a
   * recorded failure after it. Used after a crash to tell a finished turn
   * (outcome not yet journaled) from one that must run again.
   */
  isAnswered(messageId: string): boolean {
    const index = this.loaded.findIndex((e) => e.type === 'message' && e.role === 'user' && e.meta?.messageId === messageId);
    if (index < 0) return false;
    return this.loaded.slice(index + 1).some((e) => (e.type === 'message' && e.role === 'assistant') || (e.type === 'custom' && e.customType === 'turn_outcome'));
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
