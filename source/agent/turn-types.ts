import type {
  AgentEventPayload,
  ApprovalMode,
  AssistantMessageEntry,
  ChatEventPayload,
  ContextPayload,
  ToolResultEntry,
  TranscriptEntry,
  Usage,
  UserMessageEntry,
} from '../protocol/index.js';
import type { SpendCharge, ThinkingLevel } from '../providers/index.js';
import type { SessionKind } from './bootstrap.js';

export type HistoryMessage = UserMessageEntry | AssistantMessageEntry | ToolResultEntry;

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'id' | 'parentId' | 'timestamp'> : never;
/** A transcript entry before the store gives it id, parent and timestamp. */
export type NewTranscriptEntry = WithoutEnvelope<TranscriptEntry>;

/**
 * The session as one turn needs it. sessions/ sits above agent/ in the
 * dependency order, so the gateway adapts the session store to this shape.
 */
export interface TurnSession {
  key: string;
  agentId: string;
  kind: SessionKind;
  channel: string;
  /** Session override (`/model`), else the agent's model. */
  model: string | undefined;
  thinking: ThinkingLevel | undefined;
  /** How the owner's turns here ask before acting (`/mode`); absent: `ask`. */
  approvalMode?: ApprovalMode | undefined;
  /** Who asked for this turn (the least trusted of its messages): picks the tool profile. Absent: the owner. */
  principal?: string | undefined;
  /** A child's: the principal and agents it acts for (its tools and commands are the stricter of its own and theirs). */
  actingFor?: { principal: string; agents: readonly string[] } | undefined;
  /** Whom its model calls are charged to (its transcript, its ancestors); derived from the session when absent. */
  charge?: Omit<SpendCharge, 'runId' | 'turnAllowance'> | undefined;
  /** This turn's limit when its trigger set one; else agents.defaults.turnTimeoutSeconds. */
  timeoutSeconds?: number | undefined;
  /** Messages the model should see, oldest first (after the last compaction). */
  history(): Promise<HistoryMessage[]>;
  append(entry: NewTranscriptEntry): Promise<TranscriptEntry>;
  /** Adds one model call's usage to the session's token and cost counters. */
  addUsage(usage: Usage, model: string, contextTokens: number): Promise<void>;
  /** The whole transcript, compacted parts included (compaction reads and cuts it). */
  entries(): readonly TranscriptEntry[];
  /** Records the session's compaction count (sessions.json), for /status. */
  setCompactionCount(count: number): Promise<void>;
}

/** Where a turn's events go; the gateway's event bus implements it. */
export interface TurnEvents {
  chat(payload: ChatEventPayload): void;
  agent(payload: AgentEventPayload): void;
  /** Context window usage by part, after each turn and when it changes. */
  context?(payload: ContextPayload): void;
}

export interface TurnInput {
  runId: string;
  session: TurnSession;
  /**
   * New user messages for this turn. Empty for /retry: the turn answers the
   * history as it stands.
   */
  messages: ReadonlyArray<{ text: string; meta?: UserMessageEntry['meta'] }>;
  /** Aborts the stream and any running tool; the transcript stays paired. */
  signal: AbortSignal;
  /**
   * Drains messages steered into the running turn (queue mode `steer`).
   * `appended`: the caller already wrote it to the transcript.
   */
  takeSteered?(): Array<{ text: string; appended: boolean }>;
  /**
   * Whether a steered message waits, without taking it. With it, the calls
   * left in a round are skipped as soon as one arrives; without it, steered
   * messages are taken once the round's results are all on disk.
   */
  hasSteered?(): boolean;
  /**
   * Runs a wait on the provider (a retry backoff, a silent attempt) without
   * the turn's global slot; resolves once the slot is held again.
   */
  outsideSlot?<T>(wait: () => Promise<T>): Promise<T>;
}

export type TurnStatus = 'completed' | 'suppressed' | 'aborted' | 'timeout' | 'error' | 'limit';

export interface TurnOutcome {
  status: TurnStatus;
  /** The delivered reply text ('' when suppressed or failed). */
  text: string;
  model: string | undefined;
  iterations: number;
  /** `budget`: a spend cap stopped it before a model call (no call was made). */
  error?: { message: string; hint?: string; budget?: boolean };
}
