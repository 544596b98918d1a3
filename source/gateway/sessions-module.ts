import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { inboundFromChatSend } from '../channels/index.js';
import { ClawError, type AgentEventPayload, type ChatEventPayload, type SessionSummary } from '../protocol/index.js';
import {
  InboundJournal,
  LaneQueue,
  noModelRunner,
  testRunnerFromEnv,
  type TurnEmitter,
  type TurnRunner,
} from '../queue/index.js';
import type { Clock } from '../config/index.js';
import { SessionRegistry, type SessionEntry } from '../sessions/index.js';
import { InboundService } from './inbound-service.js';
import { saveConversationToMemory } from './session-memory-hook.js';
import type { SessionServices } from './agent-command-host.js';
import type { GatewayModule, ModuleFactory } from './module.js';

export interface SessionsModuleOptions {
  /** The agent runtime's runner; without one every turn fails visibly with "no model configured". */
  runner?: TurnRunner;
  clock?: Clock;
  /** Receives the sessions and lanes once they exist, for the slash commands. */
  onServices?: (services: SessionServices) => void;
}

const LANES_EVENT_INTERVAL_MS = 100;
const SNAPSHOT_SESSIONS = 200;

/** Throttles a callback to at most one call per interval, always delivering the last change. */
function throttle(fn: () => void, intervalMs: number): { poke(): void; cancel(): void } {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    poke() {
      if (timer) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) {
        last = Date.now();
        fn();
        return;
      }
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
      timer.unref();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Sessions, transcripts, the inbound journal and the lanes behind the
 * sessions.* and chat.* methods. Turns run through `options.runner`.
 */
export function sessionsModule(options: SessionsModuleOptions = {}): ModuleFactory {
  return async ({ config, paths, bus, log, now }) => {
    const runner = options.runner ?? testRunnerFromEnv() ?? noModelRunner;
    const warn = (message: string): void => log.warn(message);
    const sessions = new SessionRegistry({ paths, config, now, warn });
    const { journal, unfinished } = await InboundJournal.open(join(paths.root, 'queue', 'inbound.jsonl'), { now });

    const summary = (key: string, agentId: string, entry: SessionEntry): SessionSummary => ({ key, agentId, ...entry, ...lanes.laneInfo(key) });
    const changed = (key: string, reason: 'created' | 'updated' | 'reset' | 'deleted'): void => {
      const found = reason === 'deleted' ? undefined : sessions.get(key);
      bus.emit('sessions.changed', { key, reason, ...(found ? { session: summary(key, found.agentId, found.entry) } : {}) });
    };
    const lanesEvent = throttle(() => bus.emit('lanes', lanes.snapshot()), LANES_EVENT_INTERVAL_MS);
    const emit = ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload) => {
      if (event === 'chat') bus.emit('chat', payload as ChatEventPayload);
      else {
        const agent = payload as AgentEventPayload;
        bus.emit('agent', agent);
        if (agent.stream === 'lifecycle' && (agent.phase === 'end' || agent.phase === 'error' || agent.phase === 'aborted')) changed(agent.sessionKey, 'updated');
      }
    }) as TurnEmitter;

    const lanes: LaneQueue = new LaneQueue({
      config: config.queue,
      runner,
      openSession: (key) => sessions.open(key),
      onOutcome: (message, status, detail) => {
        journal.finish(message.seq, status, detail).catch((error: unknown) => log.error(`journal outcome for ${message.messageId} not written: ${String(error)}`));
      },
      emit,
      onChange: () => lanesEvent.poke(),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const inbound = new InboundService({ config, journal, lanes, sessions, sessionChanged: changed, warn });
    if (unfinished.length > 0) {
      const { requeued, completed } = await inbound.recover(unfinished);
      log.info(`inbound journal: ${requeued} unfinished message(s) re-queued, ${completed} found already answered`);
    }

    options.onServices?.({
      sessions,
      lanes,
      changed,
      retry: (key) => inbound.retry(key),
      beforeReset: (key) => saveConversationToMemory(sessions, key, { config, paths, now, log }).then(() => undefined),
    });

    const module: GatewayModule = {
      name: 'sessions',
      handlers: {
        'sessions.list': (params) => ({
          sessions: sessions.list(params?.agentId).map(({ key, agentId, entry }) => summary(key, agentId, entry)),
        }),
        'sessions.get': ({ key }) => {
          const { agentId, entry } = sessions.require(key);
          return { session: summary(key, agentId, entry) };
        },
        'sessions.history': ({ key, beforeId, limit }) => sessions.history(key, beforeId, limit ?? 100),
        'sessions.new': async ({ key, model }) => {
          await saveConversationToMemory(sessions, key, { config, paths, now, log });
          if (!sessions.get(key)) sessions.ensure(key);
          const entry = sessions.reset(key, model ? { model } : {});
          changed(key, 'reset');
          return { session: summary(key, sessions.resolve(key).agentId, entry) };
        },
        'sessions.reset': async ({ key }) => {
          await saveConversationToMemory(sessions, key, { config, paths, now, log });
          const entry = sessions.reset(key);
          changed(key, 'reset');
          return { session: summary(key, sessions.resolve(key).agentId, entry) };
        },
        'sessions.delete': ({ key }) => {
          const lane = lanes.laneInfo(key);
          if (lane.running || lane.queued > 0) {
            throw new ClawError('conflict', `${key} has a running turn or queued messages; abort them with chat.abort or wait, then delete.`);
          }
          const deleted = sessions.delete(key);
          if (deleted) changed(key, 'deleted');
          return { deleted };
        },
        'sessions.patch': ({ key, patch }) => {
          const entry = sessions.patch(key, patch);
          changed(key, 'updated');
          return { session: summary(key, sessions.resolve(key).agentId, entry) };
        },
        'chat.send': async (params, caller) => {
          const idempotencyKey = params.idempotencyKey ?? randomUUID();
          const result = await inbound.accept(inboundFromChatSend({
            sessionKey: params.sessionKey,
            text: params.text,
            idempotencyKey,
            queueMode: params.queueMode,
            clientId: caller.clientId,
          }));
          return { runId: result.runId, messageId: idempotencyKey, idempotencyKey, status: result.status };
        },
        'chat.abort': ({ sessionKey, runId }) => {
          sessions.resolve(sessionKey);
          return lanes.abort(sessionKey, runId);
        },
      },
      snapshot: () => ({
        sessions: sessions.list().slice(0, SNAPSHOT_SESSIONS).map(({ key, agentId, entry }) => summary(key, agentId, entry)),
        lanes: lanes.snapshot(),
      }),
      health: () => ({ ok: true, detail: `${lanes.runningCount()} running, ${journal.unfinishedCount()} unfinished` }),
      async drain(deadline) {
        await lanes.drain(deadline);
        await Promise.all([sessions.flush(), journal.flush()]);
      },
      async close() {
        lanesEvent.cancel();
        await sessions.close();
        await journal.close();
      },
    };
    return module;
  };
}
