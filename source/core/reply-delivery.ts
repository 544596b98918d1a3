import type { Logger } from '../config/index.js';
import type { EventBus } from './event-bus.js';
import type { Lifecycle } from './lifecycle.js';
import type { Outbound, OutboundReply } from './outbound.js';
import type { TurnHub } from './turns.js';
import type { ReplyRoute } from '../protocol/index.js';
import type { InboundJournal, OutcomeDetail, OutcomeStatus, QueuedMessage } from '../queue/index.js';
import { REPLY_DELIVERED, type SessionRegistry } from '../sessions/index.js';

export interface ReplyDeliveryDeps {
  journal: InboundJournal;
  outbound: Outbound;
  turns: TurnHub;
  lifecycle: Lifecycle;
  events: EventBus;
  sessions: Pick<SessionRegistry, 'open'>;
  log: Logger;
}

function routeOf(message: QueuedMessage): ReplyRoute {
  return message.route ?? { channel: message.channel };
}

/**
 * Where every message ends: its journal outcome, the outcome told to the
 * service that started it (`turns.onOutcome` of its channel), its reply on the
 * route it came with when that route leaves the machine, and `message:sent`.
 * A reply bound for a chat platform counts as answered only once it went out
 * and that is marked on disk, so a restart sends what is owed and never what
 * was sent.
 */
export class ReplyDelivery {
  constructor(private readonly deps: ReplyDeliveryDeps) {}

  outcome(message: QueuedMessage, status: OutcomeStatus, detail: OutcomeDetail): void {
    const { journal, outbound, lifecycle, log } = this.deps;
    const finish = (): void =>
      void journal
        .finish(message.seq, status, { ...(detail.reason ? { reason: detail.reason } : {}), ...(detail.turnRunId ? { turnRunId: detail.turnRunId } : {}) })
        .catch((error: unknown) => log.error(`journal outcome for ${message.messageId} not written: ${String(error)}`));
    const reply: OutboundReply = {
      sessionKey: message.sessionKey,
      runId: detail.turnRunId ?? message.runId,
      messageId: message.messageId,
      status,
      text: detail.text ?? detail.reason ?? '',
      ...(detail.failure ? { failure: detail.failure } : {}),
    };
    const route = routeOf(message);
    void this.deps.turns.outcome(message.channel, reply);
    if (!this.#delivers(message, route)) finish();
    else if (status === 'replied' && outbound.durable(route.channel)) void this.#deliverDurably(route, reply).finally(finish);
    else {
      finish();
      void outbound.deliver(route, reply);
    }
    if (status === 'replied')
      void lifecycle.emit('message:sent', { sessionKey: message.sessionKey, runId: reply.runId, channel: message.channel, text: reply.text });
  }

  /** Tells the sender of a message a message:received hook refused, in the chat view and on its route. */
  refused(message: QueuedMessage, reason: string): void {
    this.deps.events.emit('chat', {
      runId: message.runId,
      sessionKey: message.sessionKey,
      state: 'error',
      message: reason,
      hint: 'A message:received hook refused it; `claw hooks list` shows your hooks.',
    });
    this.settle(message, routeOf(message), {
      sessionKey: message.sessionKey,
      runId: message.runId,
      messageId: message.messageId,
      status: 'dropped',
      text: reason,
    });
  }

  /** Ends a message that ran no turn (a refusal, a slash command's answer): its origin hears the outcome, its chat the reply. */
  settle(message: { channel: string }, route: ReplyRoute, reply: OutboundReply): void {
    void this.deps.turns.outcome(message.channel, reply);
    if (this.#delivers(message, route)) void this.deps.outbound.deliver(route, reply);
  }

  /** A route back to an origin that hears outcomes (cron, a parent session, …) is no delivery; any other route is. */
  #delivers(message: { channel: string }, route: ReplyRoute): boolean {
    return route.channel !== message.channel || !this.deps.turns.hasOutcomeListener(message.channel);
  }

  /** Sends a reply a restart found in the transcript without its delivery mark. */
  redeliver(message: QueuedMessage, text: string): Promise<void> {
    const route = routeOf(message);
    if (!this.deps.outbound.durable(route.channel)) return Promise.resolve();
    return this.#deliverDurably(route, { sessionKey: message.sessionKey, runId: message.runId, messageId: message.messageId, status: 'replied', text });
  }

  /** Sends a reply to a chat platform, then marks it delivered in the transcript (flushed) so a restart never sends it twice. */
  async #deliverDurably(route: ReplyRoute, reply: OutboundReply): Promise<void> {
    const result = await this.deps.outbound.deliver(route, reply);
    if (!result.delivered) return;
    try {
      const session = await this.deps.sessions.open(reply.sessionKey);
      session.append({
        type: 'custom',
        customType: REPLY_DELIVERED,
        data: { messageId: reply.messageId, runId: reply.runId, channel: route.channel, ...(result.messageId ? { platformId: result.messageId } : {}) },
      });
      await session.flush();
    } catch (error) {
      this.deps.log.warn(`delivery of ${reply.messageId} not marked in ${reply.sessionKey}: ${String(error)}`);
    }
  }
}
