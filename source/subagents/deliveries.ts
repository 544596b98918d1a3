import type { Clock, TimerHandle } from '../config/index.js';
import type { InboundPort } from '../core/index.js';
import type { Principal, ReplyRoute } from '../protocol/index.js';
import type { ParentInbox } from './inbox.js';
import { announceMessageId, resultText } from './messages.js';
import type { AnnounceRecord } from './records.js';

export interface DeliveriesDeps {
  inbound: InboundPort;
  clock: Clock;
  maxChars(): number;
  /** Where the parent's answer to these results goes (the chat its spawning turn answered), when not only to its clients. */
  replyRoute(runIds: readonly string[]): ReplyRoute | undefined;
  /** Whom the results' children acted for (RunState.resultPrincipal); absent for runs recorded before that. */
  principal(runIds: readonly string[]): Principal | undefined;
  changed(): void;
  warn(message: string): void;
}

const RETRY_MS = 2000;

/**
 * Carries results from a parent's inbox to the parent, one parent at a time
 * (a chain per inbox, so two flushes never announce the same result). An
 * announce is written before it is accepted and marked delivered after; a
 * refused accept (full disk, say) is retried, under the same message id.
 */
export class Deliveries {
  readonly #chains = new Map<string, Promise<void>>();
  readonly #retries = new Map<string, TimerHandle>();

  constructor(private readonly deps: DeliveriesDeps) {}

  flush(inbox: ParentInbox): void {
    const previous = this.#chains.get(inbox.parentKey) ?? Promise.resolve();
    const next = previous.then(() => this.#flush(inbox));
    this.#chains.set(inbox.parentKey, next);
    void next.then(() => {
      if (this.#chains.get(inbox.parentKey) === next) this.#chains.delete(inbox.parentKey);
    });
  }

  /** Drops the pending retries (the next start re-delivers from the inbox). */
  stop(): void {
    for (const timer of this.#retries.values()) this.deps.clock.clearTimer(timer);
    this.#retries.clear();
  }

  async settled(): Promise<void> {
    while (this.#chains.size > 0) await Promise.all([...this.#chains.values()]);
  }

  async #flush(inbox: ParentInbox): Promise<void> {
    const held = inbox.heldRuns();
    const ready = inbox.unannounced().filter((r) => !held.has(r.runId));
    // Results an `all` yield held arrive together; the rest one message each.
    const groups: string[][] = [];
    for (const y of inbox.yields) {
      if (y.mode !== 'all') continue;
      const group = ready.filter((r) => y.runIds.includes(r.runId)).map((r) => r.runId);
      if (group.length > 0 && !groups.some((g) => g.some((id) => group.includes(id)))) groups.push(group);
    }
    const grouped = new Set(groups.flat());
    for (const r of ready) if (!grouped.has(r.runId)) groups.push([r.runId]);
    for (const runIds of groups) {
      const record: AnnounceRecord = { t: 'announce', messageId: announceMessageId(runIds), runIds, at: this.deps.clock.now() };
      inbox.append(record);
    }
    if (groups.length > 0) this.deps.changed();
    for (const announce of inbox.undelivered()) await this.#deliver(inbox, announce);
  }

  async #deliver(inbox: ParentInbox, announce: AnnounceRecord): Promise<void> {
    const results = announce.runIds.flatMap((id) => inbox.results.get(id) ?? []);
    const replyRoute = this.deps.replyRoute(announce.runIds);
    const principal = this.deps.principal(announce.runIds);
    try {
      await this.deps.inbound.accept({
        channel: 'subagent',
        sessionKey: inbox.parentKey,
        messageId: announce.messageId,
        text: resultText(results, this.deps.maxChars()),
        peer: { kind: 'direct', id: inbox.parentKey },
        senderName: results.length === 1 ? `sub-agent "${results[0]!.label}"` : `${results.length} sub-agents`,
        ...(replyRoute ? { replyRoute } : {}),
        ...(principal ? { principal } : {}),
      });
      inbox.append({ t: 'delivered', messageId: announce.messageId, at: this.deps.clock.now() });
      this.deps.changed();
    } catch (error) {
      this.deps.warn(`the completion ${announce.messageId} for ${inbox.parentKey} was not accepted (${String(error)}); retrying in ${RETRY_MS} ms`);
      if (this.#retries.has(inbox.parentKey)) return;
      this.#retries.set(
        inbox.parentKey,
        this.deps.clock.setTimer(() => {
          this.#retries.delete(inbox.parentKey);
          this.flush(inbox);
        }, RETRY_MS),
      );
    }
  }
}
