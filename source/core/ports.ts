import type { Logger } from '../config/index.js';
import type { ClawConfig, Clock, StatePaths } from '../config/index.js';
import type { CommandInfo, EventName, PayloadOf } from '../protocol/index.js';
import type { PluggedProvider, SpendCharge } from '../providers/index.js';
import type { SlashCommand } from '../agent/index.js';
import type { SessionRegistry } from '../sessions/index.js';
import type { ApprovalInbox, ConfinedCommand, ToolDefinition } from '../tools/index.js';
import type { ConfigChangeListener } from './config-store.js';
import type { InboundPort } from './inbound-service.js';
import type { Lifecycle } from './lifecycle.js';
import type { OutboundPort, OutboundReply } from './outbound.js';

/**
 * How one accepted message ended, told to whoever started it (cron, the
 * heartbeat, a parent session, a webhook route, `sessions_send`): an outcome,
 * not a delivery. Chats get the same record through `outbound`.
 */
export type MessageOutcome = OutboundReply;

export type OutcomeListener = (outcome: MessageOutcome) => void | Promise<void>;

/**
 * What a running turn does, as typed in-process events. `background` marks a
 * turn that answers only background messages (heartbeat, cron system events):
 * no chat view shows it. The gateway serialises the same turns for clients;
 * in-process code never reads wire frames.
 */
export interface TurnEvents {
  'turn.start': { sessionKey: string; runId: string; background: boolean; model?: string };
  'turn.delta': { sessionKey: string; runId: string; background: boolean; delta: string };
  'turn.tool': { sessionKey: string; runId: string; background: boolean; tool: string; phase: 'start' | 'update' | 'end'; isError?: boolean };
  'turn.end': { sessionKey: string; runId: string; background: boolean; status: 'end' | 'error' | 'aborted' };
}

export type TurnEventName = keyof TurnEvents;

export interface TurnsPort {
  /** Subscribes to one kind of turn event; the returned function unsubscribes. */
  on<E extends TurnEventName>(event: E, listener: (payload: TurnEvents[E]) => void): () => void;
  /**
   * Hears how every message accepted with `channel: origin` ended, also the
   * ones a restart re-ran. One listener per origin; registering another for
   * the same origin replaces it until the first unsubscribes.
   */
  onOutcome(origin: string, listener: OutcomeListener): () => void;
}

/** The live config: read `current` when you act; `onChange` for state derived from it. */
export interface ConfigPort {
  readonly current: ClawConfig;
  onChange(listener: ConfigChangeListener): () => void;
}

/** Sessions as services use them: the registry's transcript operations plus `ensure`, which tells clients. */
export interface SessionsPort extends Pick<SessionRegistry, 'open' | 'get' | 'patch' | 'resolve' | 'setLineage' | 'evictIdle' | 'openCount'> {
  /** Creates the session if it does not exist yet (clients see it appear). */
  ensure(key: string): void;
}

export interface LanesPort {
  /** Aborts the session's running turn (only `runId`'s, when given). */
  abort(sessionKey: string, runId?: string): { aborted: boolean; runId?: string };
  /** Whether the session's lane runs a turn and how many messages wait. */
  info(sessionKey: string): { running: boolean; queued: number };
  /** The turns running now. */
  running(): Array<{ sessionKey: string; runId: string }>;
}

export interface ToolsPort {
  register(tool: ToolDefinition): void;
  unregister(name: string): void;
  /** Pending and decided approval requests (exec, MCP). */
  readonly approvals: ApprovalInbox;
  /** `file args…` inside the exec sandbox (what a hook's command and an external agent run in), or why it cannot be confined here. */
  confine(file: string, args: readonly string[], policy: ConfinedCommand): { file: string; args: string[] } | { unavailable: string };
}

export interface ModelsPort {
  /** Throws with what is wrong (unknown model, no key) when `ref` cannot run. */
  resolve(ref: string): void;
  /** What is wrong with `ref`, or undefined when it can run. */
  problem(ref: string): string | undefined;
  /** Adds a provider made of code (a plugin's) until the returned function removes it. */
  plug(provider: PluggedProvider): () => void;
}

/** A note for an agent's next heartbeat (a webhook's wake). */
export interface SystemEventsPort {
  queue(
    agentId: string | undefined,
    event: { id: string; text: string; source: string; at: number },
    wakeNow: boolean,
  ): Promise<{ nextRunAt?: number; pending: number }>;
}

export interface WorkspacesPort {
  /** The agent's workspace folder. */
  dir(agentId: string): string;
}

/** Events for attached clients (declared in `protocol/`); the gateway serialises them. */
export interface ClientsPort {
  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void;
}

/** The spend caps as a trigger sees them before it starts work. */
export interface SpendPort {
  /** Which cap work of this kind would hit at once (already used up, or the session paused), or undefined. */
  exhausted(charge: Pick<SpendCharge, 'agentId' | 'sessionKey' | 'kind'>): string | undefined;
}

export interface CommandsPort {
  /** The slash commands a chat may run now (built-ins, then user-invocable skills): a platform's command menu is built from them. */
  list(): Promise<CommandInfo[]>;
  /** Commands that come and go (a plugin's), asked for on every lookup; a built-in of the same name wins. */
  addSource(source: (reserved: ReadonlySet<string>) => readonly SlashCommand[]): void;
}

/**
 * Everything a service may use of the daemon. A service asks for the subset
 * it needs (`Pick<CorePorts, …>`), never for `Core`: the architecture test
 * refuses the class outside `core/`, `daemon/` and `gateway/`.
 */
export interface CorePorts {
  /** The one way in for every trigger. */
  inbound: InboundPort;
  /** Replies to chats that leave the machine (chat platforms). */
  outbound: OutboundPort;
  /** Typed turn events and message outcomes. */
  turns: TurnsPort;
  sessions: SessionsPort;
  lanes: LanesPort;
  tools: ToolsPort;
  commands: CommandsPort;
  models: ModelsPort;
  systemEvents: SystemEventsPort;
  spend: SpendPort;
  workspaces: WorkspacesPort;
  /** Lifecycle events that hooks hear and gate (`message:received`, `tool:before`, …). */
  lifecycle: Pick<Lifecycle, 'on' | 'until' | 'emit'>;
  clients: ClientsPort;
  config: ConfigPort;
  clock: Clock;
  log: Logger;
  paths: StatePaths;
  /** Where provider keys and tokens named by `*Env` keys are read. */
  env: NodeJS.ProcessEnv;
}
