import type { CompactionResult } from '../compaction/compact.js';
import type { ContextWindowOptions } from '../compaction/context-window.js';
import type { HistoryMessage } from '../turn-types.js';
import type { ContextAccount } from './accounting.js';

/** Which engine this is, and whether it keeps history short itself. */
export interface ContextEngineInfo {
  id: string;
  /** True when the engine compacts on its own terms: `/compact` and overflow recovery are its, not the default compactor's. */
  ownsCompaction: boolean;
}

/** What an engine is built from: one session's window for one turn or command (README.md). */
export type ContextEngineOptions = ContextWindowOptions;

/**
 * One session's context window during a turn or a command: what enters
 * history, what the model sees, and how history stays inside the window.
 * The turn loop and the `/compact` and `/context` commands use only this.
 */
export interface ContextEngine {
  readonly info: ContextEngineInfo;
  /** The model's context window in tokens. */
  readonly window: number;
  /** A tool result as it may enter the transcript. */
  ingest(content: string, toolName: string): string;
  /** The history as the next model call sends it. */
  assemble(messages: HistoryMessage[]): HistoryMessage[];
  /** Before each model call: whatever maintenance is due (compaction, a memory flush). */
  beforeModelCall(): Promise<void>;
  /** After a provider's context-length error: shrinks once more; whether a retry may help. */
  recoverOverflow(): Promise<boolean>;
  /** Compacts now (`/compact`, or when due). */
  compact(request?: { instructions?: string | undefined; runId?: string | undefined }): Promise<CompactionResult>;
  /** After an answered turn: maintenance that must not delay the reply, then the account published. */
  afterTurn(): Promise<void>;
  /** The token account by part, published to clients (`context` event). */
  report(): Promise<ContextAccount>;
}

/**
 * Thrown by `beforeModelCall` when the next call cannot fit even after
 * pruning and compaction: the turn ends with this message (what filled the
 * window) instead of a provider's refusal. Not an engine failure.
 */
export class ContextOverflow extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'ContextOverflow';
  }
}
