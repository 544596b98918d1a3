import type { QueueMode } from './modes.js';
import type { AgentEventPayload, ChatEventPayload, TranscriptEntry, ReplyRoute, TurnFailure, SessionSummary } from '../protocol/index.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A transcript entry before the session stamps its id, parentId and timestamp. */
export type NewTranscriptEntry = DistributiveOmit<TranscriptEntry, 'id' | 'parentId' | 'timestamp'>;

/** Per-session settings and counters a turn reads or updates. */
export type SessionMeta = Pick<
  SessionSummary,
  | 'key'
  | 'agentId'
  | 'sessionId'
  | 'kind'
  | 'model'
  | 'thinking'
  | 'approvalMode'
  | 'queueMode'
  | 'label'
  | 'tokens'
  | 'costUsd'
  | 'compactionCount'
  | 'lastChannel'
  | 'spawnedBy'
  | 'spawnDepth'
  | 'principal'
  | 'actingFor'
>;
export type SessionMetaPatch = Partial<Pick<SessionMeta, 'model' | 'tokens' | 'costUsd' | 'compactionCount' | 'principal'>>;

/** The open session a turn works on (implemented by sessions/). */
export interface SessionHandle {
  readonly key: string;
  readonly agentId: string;
  readonly sessionId: string;
  /** Entries of the current transcript, oldest first. */
  entries(): readonly TranscriptEntry[];
  meta(): SessionMeta;
  /** Appends in order, chained by parentId; returns the stamped entries. */
  append(...entries: NewTranscriptEntry[]): TranscriptEntry[];
  updateMeta(patch: SessionMetaPatch): void;
  /** Whether a user message with this inbound messageId is already in the transcript. */
  hasMessage(messageId: string): boolean;
  /** Whether that user message already has its final reply or recorded failure in the transcript. */
  isAnswered(messageId: string): boolean;
}

/** An accepted inbound message as the lane hands it to a turn. */
export interface QueuedMessage {
  /** Journal sequence: the order messages were accepted in. */
  seq: number;
  runId: string;
  messageId: string;
  sessionKey: string;
  agentId: string;
  channel: string;
  text: string;
  mode: QueueMode;
  acceptedAt: number;
  senderId?: string | undefined;
  senderName?: string | undefined;
  /** From someone other than the channel's owner: kept in the transcript as `meta.untrusted`. */
  untrusted?: boolean | undefined;
  /** Who asked (see InboundMessage.principal); absent for the owner. */
  principal?: string | undefined;
  route?: ReplyRoute | undefined;
  /** `/retry`: runs although the transcript already answers this messageId. */
  rerun?: boolean | undefined;
  /** Put back by LaneQueue.restore after a restart: skipped when the transcript already answers it. */
  restored?: boolean | undefined;
  /** A heartbeat or cron turn: its events are not broadcast and its prompt is marked synthetic. */
  background?: boolean | undefined;
  /** Runs with this model instead of the session's (a heartbeat's or webhook's own model). */
  model?: string | undefined;
  /** This turn's time limit, when its trigger set one. */
  timeoutSeconds?: number | undefined;
}

export interface TurnContext {
  runId: string;
  sessionKey: string;
  agentId: string;
  /** What this turn answers: one message, or several merged by collect mode. */
  messages: readonly QueuedMessage[];
  /** Aborted by chat.abort, an interrupting message, the watchdog or shutdown. */
  signal: AbortSignal;
  /** Messages sent in steer mode since the turn began; drain them at tool boundaries. */
  takeSteered(): QueuedMessage[];
  /** Whether steered messages wait, without taking them (so a tool round can end cleanly first). */
  hasSteered(): boolean;
  /** Tell the watchdog the turn is alive (a token streamed, a tool returned). */
  progress(): void;
  /**
   * Runs `wait` without holding a global slot: for a turn that is only
   * waiting on its provider (a retry backoff, a silent attempt), so one bad
   * provider cannot starve every other session. The slot is taken again
   * (queued fairly behind other lanes) before this resolves; the session's
   * own lane stays held throughout.
   */
  outsideSlot<T>(wait: () => Promise<T>): Promise<T>;
  session: SessionHandle;
  /** Broadcast run events; the lane fills in error/aborted events from the outcome. */
  emit(event: 'chat', payload: ChatEventPayload): void;
  emit(event: 'agent', payload: AgentEventPayload): void;
}

export interface TurnOutcome {
  status: 'replied' | 'failed' | 'aborted' | 'suppressed';
  /** For failed/aborted: what happened, shown to the sender. */
  error?: string;
  /** For failed: what the user can do about it. */
  hint?: string;
  /** For failed: which kind of failure, kept distinct all the way to the client. */
  failure?: TurnFailure;
  /** For replied: the reply, used for the `chat final` event when the runner sent none. */
  text?: string;
}

/**
 * The seam between lanes and the agent runtime. The lane has already appended
 * the user message(s) to the transcript when run() is called; run() appends
 * what the turn produces, streams `chat` deltas and the final reply through
 * `emit`, and resolves with the outcome. It must not throw for ordinary
 * failures; a throw counts as `failed` with the error's message.
 */
export interface TurnRunner {
  run(turn: TurnContext): Promise<TurnOutcome>;
}
