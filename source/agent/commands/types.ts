import type { ApprovalMode, CommandArgument, CronRun, HeartbeatAgentStatus, ScheduleOverview, SessionSummary } from '../../protocol/index.js';
import type { Providers, ThinkingLevel } from '../../providers/index.js';
import type { ContextReport, LastError } from '../agent-runtime.js';
import type { ContextEngine } from '../context/index.js';
import type { TurnSession } from '../turn-types.js';
import type { ToolResult } from '../../tools/index.js';

/**
 * What slash commands need from sessions and lanes. Those subsystems sit
 * above agent/, so the gateway implements this over them.
 */
export interface CommandHost {
  /** The session, created if the key is new. */
  session(key: string): Promise<SessionSummary>;
  patch(key: string, patch: { model?: string | null; thinking?: ThinkingLevel | null; approvalMode?: ApprovalMode | null }): Promise<SessionSummary>;
  newSession(key: string, model?: string): Promise<SessionSummary>;
  reset(key: string): Promise<SessionSummary>;
  /** Aborts the running turn; false when nothing was running. */
  abort(key: string): Promise<boolean>;
  /** Runs a turn on the transcript as it stands (no new message). */
  retry(key: string): Promise<{ runId: string }>;
  /** The open transcript of a session, as turns see it (created if the key is new). */
  turnSession(key: string): Promise<TurnSession>;
  /** Heartbeat and cron, when the daemon runs them (/cron, /heartbeat). */
  schedule?: ScheduleCommandHost;
  /** Whether a turn runs in the session now (a command that writes to its transcript waits for it). */
  running?(key: string): boolean;
}

/** The schedule service as /cron and /heartbeat use it (implemented by schedule/, above agent/). */
export interface ScheduleCommandHost {
  overview(): ScheduleOverview;
  run(jobId: string): CronRun;
  heartbeatNow(agentId?: string): void;
  pauseHeartbeat(agentId: string | undefined, paused: boolean): HeartbeatAgentStatus;
}

export interface CommandContext {
  sessionKey: string;
  /** Everything after the command word, trimmed. */
  args: string;
  host: CommandHost;
  providers: Providers;
  /** The model the session uses now (override, agent or default). */
  resolveModel(session: SessionSummary): Promise<string | undefined>;
  /** The thinking level the session's turns use (its own, its agent's or the default). */
  resolveThinking(session: SessionSummary): ThinkingLevel;
  /** Runs a command through the exec tool as the session's owner (sandbox, policy, approvals); `output` is what it printed, unfenced. */
  runShell(session: TurnSession, command: string): Promise<{ result: ToolResult; output: string }>;
  lastError(sessionKey: string): LastError | undefined;
  /** The session's context window with its current model; undefined when no model is configured. */
  contextWindow(session: TurnSession, runId: string): Promise<ContextEngine | undefined>;
  /** System prompt, bootstrap files and tool schemas as a turn would get them now. */
  contextReport(session: TurnSession): Promise<ContextReport>;
  /** The registry's own list, for /help. */
  list(): readonly SlashCommand[];
  /**
   * The scopes of whoever runs the command: a client's token's, or what a
   * channel sender is granted (the owner gets admin). Unknown: nothing that
   * needs admin runs.
   */
  scopes?: readonly string[] | undefined;
}

export interface CommandReply {
  reply: string;
  data?: unknown;
}

export interface SlashCommand {
  name: string;
  aliases: readonly string[];
  /** Usage of the arguments, e.g. `[provider/model]`; empty when there are none. */
  args: string;
  description: string;
  /**
   * Only the owner runs it (admin scope: the operator's TUI and CLI, the
   * owner's own chat): what changes the schedule, pairing, the agent, the
   * model or approvals. Anyone else gets a refusal that says so.
   */
  ownerOnly?: boolean;
  /** The argument and, when it is one of a known set, its values now (for completion and pickers). */
  argument?(providers: Providers): Promise<CommandArgument | CommandArgument[]> | CommandArgument | CommandArgument[];
  run(context: CommandContext): Promise<CommandReply>;
}

export type { ThinkingLevel };
