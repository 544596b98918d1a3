import type { CorePorts } from '../core/index.js';
import { leastTrusted, type Principal, type ReplyRoute, type SubagentNode } from '../protocol/index.js';
import { ParentInbox } from './inbox.js';
import type { ResultRecord, SpawnedRecord } from './records.js';
import { RunLedger } from './run-ledger.js';
import { buildNodes } from './tree.js';

/** What sub-agents use of the daemon. */
export type SubagentPorts = Pick<
  CorePorts,
  'paths' | 'inbound' | 'outbound' | 'turns' | 'lifecycle' | 'clock' | 'config' | 'tools' | 'lanes' | 'sessions' | 'models' | 'workspaces' | 'log' | 'clients'
>;

/**
 * What every part of the service reads about child runs: the ledger, each
 * parent's inbox, and what lifecycle events told of running turns (the last
 * tool, the parent's current run, the chat its turn answers).
 */
export class RunState {
  readonly ledger: RunLedger;
  readonly inboxes = new Map<string, ParentInbox>();
  readonly lastTool = new Map<string, string>();
  readonly currentRun = new Map<string, string>();
  /** Session → the chat-platform route of its running turn. */
  readonly turnRoutes = new Map<string, ReplyRoute>();

  constructor(
    readonly core: SubagentPorts,
    ledgerPath: string,
    readonly inboxDir: string,
  ) {
    this.ledger = new RunLedger(ledgerPath, (message) => this.warn(message));
    for (const parentKey of ParentInbox.parentsIn(inboxDir)) this.inbox(parentKey);
  }

  warn(message: string): void {
    this.core.log.warn(`subagents: ${message}`);
  }

  inbox(parentKey: string): ParentInbox {
    let inbox = this.inboxes.get(parentKey);
    if (!inbox) {
      inbox = new ParentInbox(parentKey, this.inboxDir, (message) => this.warn(message));
      this.inboxes.set(parentKey, inbox);
    }
    return inbox;
  }

  resultOf(run: SpawnedRecord): ResultRecord | undefined {
    return this.inboxes.get(run.parentKey)?.results.get(run.runId);
  }

  runningChildren(parentKey: string): SpawnedRecord[] {
    return this.ledger.all().filter((run) => run.parentKey === parentKey && !this.resultOf(run));
  }

  depthOf(sessionKey: string): number {
    return this.ledger.byChild(sessionKey)?.depth ?? 0;
  }

  /** The route the parent's answer to these results goes to: the one their spawning turn answered. */
  replyRoute(runIds: readonly string[]): ReplyRoute | undefined {
    for (const runId of [...runIds].reverse()) {
      const route = this.ledger.get(runId)?.replyRoute;
      if (route) return route;
    }
    return undefined;
  }

  /**
   * Who a delivery of these results speaks for: the least trusted of the
   * principals the children acted for, so a webhook's child reporting back
   * does not hand its parent's next turn more authority than the webhook had.
   */
  resultPrincipal(runIds: readonly string[]): Principal | undefined {
    return leastTrusted(runIds.map((runId) => this.ledger.get(runId)?.actingFor?.principal)) as Principal | undefined;
  }

  tokens(childKey: string): number {
    const tokens = this.core.sessions.get(childKey)?.entry.tokens;
    return tokens ? tokens.input + tokens.output : 0;
  }

  list(parentKey?: string): SubagentNode[] {
    const nodes = buildNodes(this.ledger.all(), (run) => this.#nodeState(run));
    if (parentKey === undefined) return nodes;
    const keys = new Set([parentKey]);
    return nodes.filter((node) => {
      if (!keys.has(node.parentKey)) return false;
      keys.add(node.key);
      return true;
    });
  }

  node(run: SpawnedRecord): SubagentNode {
    return buildNodes([run], (r) => this.#nodeState(r))[0]!;
  }

  close(): Promise<void> {
    for (const inbox of this.inboxes.values()) inbox.close();
    this.inboxes.clear();
    return this.ledger.close();
  }

  #nodeState(run: SpawnedRecord): Pick<SubagentNode, 'status' | 'endedAt' | 'lastTool' | 'tokens' | 'delivery'> {
    const result = this.resultOf(run);
    const tokens = this.tokens(run.childKey);
    const lastTool = this.lastTool.get(run.childKey);
    const common = { ...(lastTool ? { lastTool } : {}), ...(tokens > 0 ? { tokens } : {}) };
    if (result) {
      const delivery = this.inboxes.get(run.parentKey)?.delivery(run.runId);
      return { ...common, status: result.status, endedAt: result.at, tokens: result.tokens, ...(delivery ? { delivery } : {}) };
    }
    return { ...common, status: this.core.lanes.info(run.childKey).running ? 'running' : 'queued' };
  }
}
