import { randomUUID } from 'node:crypto';
import type { ClawConfig } from '../config/index.js';
import { ClawError, type SessionPeer } from '../protocol/index.js';
import type { Lifecycle } from './lifecycle.js';
import {
  principalOf,
  replyRouteOf,
  resolveQueueMode,
  type InboundMessage,
  type AcceptedRecord,
  type InboundJournal,
  type LaneQueue,
  type QueuedMessage,
} from '../queue/index.js';
import { routeInbound } from '../routing/index.js';
import { RECOVERED_ENTRY, type SessionRegistry } from '../sessions/index.js';

export interface AcceptResult {
  runId: string;
  sessionKey: string;
  status: 'started' | 'queued' | 'duplicate' | 'dropped';
  /** Why it was dropped, when a policy (a message:received hook) refused it. */
  reason?: string;
}

export interface InboundServiceDeps {
  config: ClawConfig;
  journal: InboundJournal;
  lanes: LaneQueue;
  sessions: SessionRegistry;
  lifecycle: Lifecycle;
  /** Tells the sender of a message a policy refused (the reply route it came with). */
  refused(message: QueuedMessage, reason: string): void;
  sessionChanged(key: string, reason: 'created' | 'reset'): void;
  /** After a restart: a reply already in the transcript that a chat platform may not have got (durable channels only). */
  redeliver(message: QueuedMessage, text: string): Promise<void>;
  /** Ends a message as failed where every outcome ends: its journal record, its origin, its chat (the sender hears it, once). */
  failed(message: QueuedMessage, reason: string): void;
  /** A message was accepted (durable, queued): every client shows it live. */
  accepted(message: InboundMessage, sessionKey: string): void;
  warn(message: string): void;
}

/** The one way in: every trigger (TUI, CLI, channels, cron, heartbeat, webhooks, announces) calls this. */
export interface InboundPort {
  accept(message: InboundMessage): Promise<AcceptResult>;
  /**
   * The run a restart replays for this message: it is in the journal without
   * an outcome. A service whose own record of the run died with the process
   * (it crashed between the journal and its own log) finds the run here.
   */
  replayOf(channel: string, messageId: string): string | undefined;
}

/** The chat a routed channel message came from, as the session summary names it; none for a message that named its session. */
function peerOf(message: InboundMessage): SessionPeer | undefined {
  if (message.sessionKey !== undefined) return undefined;
  return {
    kind: message.peer.kind,
    id: message.peer.id,
    ...(message.peerName ? { name: message.peerName } : {}),
    ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
  };
}

function queued(record: AcceptedRecord): QueuedMessage {
  return {
    seq: record.seq,
    runId: record.runId,
    messageId: record.messageId,
    sessionKey: record.sessionKey,
    agentId: record.agentId,
    channel: record.channel,
    text: record.text,
    mode: record.mode,
    acceptedAt: record.at,
    ...(record.senderId !== undefined ? { senderId: record.senderId } : {}),
    ...(record.senderName !== undefined ? { senderName: record.senderName } : {}),
    ...(record.untrusted ? { untrusted: true } : {}),
    ...(record.principal !== undefined ? { principal: record.principal } : record.untrusted ? { principal: 'contact' } : {}),
    ...(record.route !== undefined ? { route: record.route } : {}),
    ...(record.dedupeKey.startsWith(RETRY_PREFIX) ? { rerun: true } : {}),
    ...(record.background ? { background: true } : {}),
    ...(record.model !== undefined ? { model: record.model } : {}),
    ...(record.timeoutSeconds !== undefined ? { timeoutSeconds: record.timeoutSeconds } : {}),
  };
}

/** `/retry` journals under this dedupe prefix: its message runs although the transcript answers it. */
const RETRY_PREFIX = 'retry\u0000';

/** A message that was being answered when the gateway died this many times is not run again. */
const MAX_RECOVERIES = 3;

/**
 * The path of every inbound message: check, route, dedupe, journal durably,
 * then hand to its lane. Also replays the journal after a restart.
 */
export class InboundService implements InboundPort {
  constructor(private readonly deps: InboundServiceDeps) {}

  replayOf(channel: string, messageId: string): string | undefined {
    return this.deps.journal.unfinishedRun(`${channel}\u0000${messageId}`);
  }

  async accept(message: InboundMessage): Promise<AcceptResult> {
    const { config, journal, lanes, sessions } = this.deps;
    const limit = config.session.maxMessageChars;
    if (message.text.length > limit) {
      throw new ClawError(
        'bad_request',
        `The message is ${message.text.length} characters; the limit is ${limit} (session.maxMessageChars). Shorten it or split it.`,
      );
    }
    if (message.text.trim().length === 0) throw new ClawError('bad_request', 'The message is empty; type some text to send.');
    const sessionKey = message.sessionKey ?? routeInbound(message, config).sessionKey;
    const { agentId } = sessions.resolve(sessionKey);
    const dedupeKey = `${message.channel}\u0000${message.messageId}`;
    const earlier = journal.lookup(dedupeKey);
    if (earlier) return { runId: earlier.runId, sessionKey: earlier.sessionKey, status: 'duplicate' };
    const received = {
      sessionKey,
      messageId: message.messageId,
      channel: message.channel,
      text: message.text,
      ...(message.senderId !== undefined ? { senderId: message.senderId } : {}),
    };
    // Listeners may veto (hooks); with none the path stays free of awaits, so acceptance order is call order.
    const gated = this.deps.lifecycle.has('message:received');
    const blocked = gated ? await this.deps.lifecycle.gate('message:received', received) : undefined;
    const again = gated ? journal.lookup(dedupeKey) : undefined;
    if (again) return { runId: again.runId, sessionKey: again.sessionKey, status: 'duplicate' };
    const mode = resolveQueueMode({ message: message.queueMode, session: sessions.get(sessionKey)?.entry.queueMode, channel: message.channel }, config.queue);
    const record = await journal.accept({
      dedupeKey,
      runId: randomUUID(),
      messageId: message.messageId,
      sessionKey,
      agentId,
      channel: message.channel,
      text: message.text,
      mode,
      ...(message.senderId !== undefined ? { senderId: message.senderId } : {}),
      ...(message.senderName !== undefined ? { senderName: message.senderName } : {}),
      ...(message.untrusted ? { untrusted: true as const } : {}),
      principal: principalOf(message),
      route: replyRouteOf(message),
      ...(message.background ? { background: true as const } : {}),
      ...(message.model !== undefined ? { model: message.model } : {}),
      ...(message.timeoutSeconds !== undefined ? { timeoutSeconds: message.timeoutSeconds } : {}),
    });
    if (blocked) {
      const reason = `Dropped by policy: ${blocked.reason}`;
      await journal.finish(record.seq, 'dropped', { reason });
      this.deps.refused(queued(record), reason);
      return { runId: record.runId, sessionKey, status: 'dropped', reason };
    }
    // Nothing may await between the journal and the lane: acceptance order is lane order.
    const ensured = sessions.ensure(sessionKey, message.channel, peerOf(message));
    if (ensured.created) this.deps.sessionChanged(sessionKey, 'created');
    if (ensured.reset) this.deps.sessionChanged(sessionKey, 'reset');
    const status = lanes.enqueue(queued(record));
    this.deps.accepted(message, sessionKey);
    return { runId: record.runId, sessionKey, status };
  }

  /**
   * `/retry`: runs the session's last user message again. It goes through the
   * journal like any message, under the original messageId, so the lane does
   * not append it to the transcript a second time.
   */
  async retry(sessionKey: string): Promise<{ runId: string }> {
    const { journal, lanes, sessions } = this.deps;
    const session = await sessions.open(sessionKey);
    const last = [...session.entries()].reverse().find((e) => e.type === 'message' && e.role === 'user');
    if (last?.type !== 'message' || last.role !== 'user') {
      throw new ClawError('not_found', `Nothing to retry: ${sessionKey} has no message from you yet.`);
    }
    const record = await journal.accept({
      dedupeKey: `${RETRY_PREFIX}${randomUUID()}`,
      runId: randomUUID(),
      messageId: last.meta?.messageId ?? last.id,
      sessionKey,
      agentId: session.agentId,
      channel: last.meta?.channel ?? 'tui',
      text: last.content,
      mode: 'followup',
    });
    lanes.enqueue(queued(record));
    return { runId: record.runId };
  }

  /**
   * After a restart: a message whose final reply (or recorded failure) is in
   * its transcript only lacks its outcome record; anything else runs again
   * (see source/queue/README.md, "Crash recovery"), all of a session's
   * messages restored together so a collect batch stays one turn. A message
   * that was mid-turn in MAX_RECOVERIES crashes ends as a visible failure.
   */
  async recover(
    unfinished: readonly AcceptedRecord[],
  ): Promise<{ requeued: number; completed: number; failed: number; failedMessages: Array<{ sessionKey: string; messageId: string }> }> {
    const { journal, lanes, sessions } = this.deps;
    const rerun: QueuedMessage[] = [];
    const failedMessages: Array<{ sessionKey: string; messageId: string }> = [];
    let completed = 0;
    let failed = 0;
    for (const record of unfinished) {
      const message = queued(record);
      try {
        sessions.ensure(record.sessionKey, record.channel);
        const session = await sessions.open(record.sessionKey);
        if (!message.rerun && session.isAnswered(record.messageId)) {
          const unsent = session.undeliveredReply(record.messageId);
          const settle = (): void =>
            void journal
              .finish(record.seq, 'replied', { reason: 'reply found in the transcript after a restart' })
              .catch((error: unknown) => this.deps.warn(String(error)));
          if (unsent === undefined) settle();
          else void this.deps.redeliver(message, unsent).finally(settle);
          completed += 1;
          continue;
        }
        // A crash counts against a message only when it came while the message's turn was running: its first run
        // (its user entry is written when the turn starts) or a re-run since the last restart (a `turn_rerun` note).
        // A message still waiting in its lane when the gateway died is not to blame, and is not counted.
        const runs = session.hasMessage(record.messageId) ? 1 + session.reruns(record.messageId) : 0;
        const crashes = session.recoveries(record.messageId);
        if (runs > crashes) {
          const attempts = crashes + 1;
          if (attempts > MAX_RECOVERIES) {
            const error = `The gateway stopped ${MAX_RECOVERIES} times while answering this message, so it was not run again. Send it again if it still matters.`;
            session.append({ type: 'custom', customType: 'turn_outcome', data: { runId: record.runId, status: 'failed', error } });
            this.deps.failed(message, error);
            failedMessages.push({ sessionKey: record.sessionKey, messageId: record.messageId });
            failed += 1;
            continue;
          }
          session.append({ type: 'custom', customType: RECOVERED_ENTRY, data: { messageId: record.messageId, runId: record.runId, attempt: attempts } });
        }
      } catch (error) {
        this.deps.warn(`could not check ${record.sessionKey} for message ${record.messageId}: ${String(error)}`);
      }
      rerun.push(message);
    }
    lanes.restore(rerun);
    return { requeued: rerun.length, completed, failed, failedMessages };
  }
}
