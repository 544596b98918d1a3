import type { SessionSummary, TranscriptEntry } from '../../protocol/index.js';
import type { SessionsReach } from './visibility.js';

/** What the target session made of a `sessions_send` message, as its lane reported it. */
export interface SendReply {
  status: 'replied' | 'failed' | 'aborted' | 'suppressed' | 'dropped';
  text: string;
}

export interface SendInput {
  /** The calling session. */
  from: string;
  to: string;
  text: string;
  /** Inter-session hops this message makes (1 for a message a person's turn sends). */
  hops: number;
  /** 0: do not wait for the reply. */
  waitMs: number;
  signal: AbortSignal;
  /** Whom the sending turn acts for: the message carries it, so trust does not grow across the hop. */
  principal: string;
}

export interface SendResult {
  runId: string;
  messageId: string;
  status: 'started' | 'queued' | 'duplicate' | 'dropped';
  /** The target's answer; absent when not waited for or not in time. */
  reply?: SendReply;
}

export interface SessionModelInfo {
  model?: string | undefined;
  provider?: string | undefined;
  contextWindow?: number | undefined;
}

/**
 * What the sessions tools need from sessions, lanes and the inbound port.
 * Those sit above agent/ or beside it, so core/ implements this over them.
 */
export interface SessionsToolsHost {
  /** Every session the gateway knows (all agents), with live lane state. */
  list(): SessionSummary[];
  get(key: string): SessionSummary | undefined;
  /** The session's current transcript, oldest first. */
  entries(key: string): Promise<readonly TranscriptEntry[]>;
  model(session: SessionSummary): Promise<SessionModelInfo>;
  /** Agent ids the config knows. */
  agentIds(): string[];
  reach(): SessionsReach;
  /** Hops of the inter-session message the session's running turn answers; 0 when it answers anyone else. */
  hopsOf(sessionKey: string): number;
  /** Queues the message on the target's lane through the inbound port; with waitMs, waits for the turn that answers it. */
  send(input: SendInput): Promise<SendResult>;
  now(): number;
}
