import { randomUUID } from 'node:crypto';
import { framedMessage, hopsOfMessageId, SESSION_CHANNEL, sendMessageId, type AgentRuntime, type SendReply, type SessionsToolsHost } from '../agent/index.js';
import { OUTSIDE_KINDS, principalKind, type Principal } from '../protocol/index.js';
import type { ClawConfig, Clock } from '../config/index.js';
import { configuredAgentIds } from '../memory/index.js';
import type { Providers } from '../providers/index.js';
import type { TurnRunner } from '../queue/index.js';
import type { InboundPort } from './inbound-service.js';
import type { TurnsPort } from './ports.js';
import type { SessionsService } from './sessions-service.js';

export interface SessionsToolsHostDeps {
  config: ClawConfig;
  clock: Clock;
  sessions: SessionsService;
  agent: AgentRuntime;
  providers: Providers;
  turns: TurnsPort;
  /** The plain message path (not the command-aware one): a sent "/reset" is text for the other session, not a command. */
  inbound: InboundPort;
  hops: TurnHops;
}

/** Which running turn answers a sessions_send message of how many hops (lanes run one turn per session at a time). */
export class TurnHops {
  readonly #bySession = new Map<string, number>();

  /** Wraps the lanes' runner so a tool call knows the hop count of the message its turn answers. */
  track(runner: TurnRunner): TurnRunner {
    return {
      run: async (turn) => {
        const hops = Math.max(0, ...turn.messages.filter((m) => m.channel === SESSION_CHANNEL).map((m) => hopsOfMessageId(m.messageId)));
        if (hops > 0) this.#bySession.set(turn.sessionKey, hops);
        try {
          return await runner.run(turn);
        } finally {
          this.#bySession.delete(turn.sessionKey);
        }
      },
    };
  }

  of(sessionKey: string): number {
    return this.#bySession.get(sessionKey) ?? 0;
  }
}

/**
 * The sessions tools' view of the daemon. A `sessions_send` message enters
 * through the inbound port on the `session` channel, so it is journaled and
 * queued like any message; its turn's outcome comes back through the
 * turns port to the tool call waiting for it. The hop count rides in the
 * message id, so it survives the journal and a restart.
 */
export class CoreSessionsToolsHost implements SessionsToolsHost {
  readonly #waiters = new Map<string, (reply: SendReply) => void>();

  constructor(private readonly deps: SessionsToolsHostDeps) {
    // Nobody waits after a timeout or a restart: the reply stays in the target's transcript.
    deps.turns.onOutcome(SESSION_CHANNEL, (outcome) => this.#waiters.get(outcome.messageId)?.({ status: outcome.status, text: outcome.text }));
  }

  list() {
    return this.deps.sessions.list();
  }

  get(key: string) {
    try {
      return this.deps.sessions.registry.get(key) ? this.deps.sessions.summaryOf(key) : undefined;
    } catch {
      return undefined;
    }
  }

  async entries(key: string) {
    return (await this.deps.sessions.registry.open(key)).entries();
  }

  async model(session: Parameters<SessionsToolsHost['model']>[0]) {
    const model = await this.deps.agent.resolveModel(session);
    if (!model) return {};
    try {
      const resolved = this.deps.providers.resolveModel(model);
      return { model, provider: resolved.provider, contextWindow: resolved.contextWindow };
    } catch {
      return { model };
    }
  }

  agentIds(): string[] {
    return configuredAgentIds(this.deps.config);
  }

  reach() {
    return this.deps.config.tools.sessions;
  }

  hopsOf(sessionKey: string): number {
    return this.deps.hops.of(sessionKey);
  }

  now(): number {
    return this.deps.clock.now();
  }

  async send(input: Parameters<SessionsToolsHost['send']>[0]) {
    const { inbound } = this.deps;
    const messageId = sendMessageId(input.hops, randomUUID());
    const reply = input.waitMs > 0 ? this.#wait(messageId, input.waitMs, input.signal) : undefined;
    let accepted: Awaited<ReturnType<InboundPort['accept']>>;
    try {
      accepted = await inbound.accept({
        channel: SESSION_CHANNEL,
        peer: { kind: 'direct', id: input.from },
        sessionKey: input.to,
        messageId,
        text: framedMessage(input.from, input.hops, input.text),
        senderId: input.from,
        senderName: input.from,
        // From a turn someone outside asked for: their principal travels with the words, and the words are fenced.
        ...(OUTSIDE_KINDS.has(principalKind(input.principal)) ? { principal: input.principal as Principal, untrusted: true } : {}),
      });
    } catch (error) {
      this.#waiters.get(messageId)?.({ status: 'dropped', text: '' });
      throw error;
    }
    const base = { runId: accepted.runId, messageId, status: accepted.status };
    if (!reply || accepted.status === 'dropped' || accepted.status === 'duplicate') {
      this.#waiters.get(messageId)?.({ status: 'dropped', text: '' });
      return base;
    }
    const answer = await reply;
    return answer ? { ...base, reply: answer } : base;
  }

  #wait(messageId: string, ms: number, signal: AbortSignal): Promise<SendReply | undefined> {
    const { clock } = this.deps;
    return new Promise((resolve) => {
      const done = (reply: SendReply | undefined): void => {
        this.#waiters.delete(messageId);
        clock.clearTimer(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(reply);
      };
      const onAbort = (): void => done(undefined);
      const timer = clock.setTimer(() => done(undefined), ms);
      this.#waiters.set(messageId, done);
      if (signal.aborted) done(undefined);
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
