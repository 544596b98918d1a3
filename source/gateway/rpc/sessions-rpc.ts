import { randomUUID } from 'node:crypto';
import { checkModelRef } from '../../agent/index.js';
import { inboundFromChatSend } from '../../channels/index.js';
import type { Core } from '../../core/index.js';
import { ClawError } from '../../protocol/index.js';
import type { HandlerTable } from '../module.js';

/** sessions.* and chat.*: validate (done by the router), call the core, map the result. */
export function sessionsRpc(core: Core): HandlerTable {
  const { sessions, lanes, inbound, commands, providers } = core;
  const { registry } = sessions;
  return {
    'sessions.list': (params) => ({ sessions: sessions.list(params?.agentId) }),
    'sessions.get': ({ key }) => ({ session: sessions.summaryOf(key) }),
    'sessions.history': ({ key, beforeId, limit }) => registry.history(key, beforeId, limit ?? 100),
    'sessions.new': async ({ key, model }) => {
      if (model) await checkModelRef(providers, model);
      return { session: await sessions.reset(key, { kind: 'new', ...(model ? { model } : {}) }) };
    },
    'sessions.reset': async ({ key }) => {
      registry.require(key);
      return { session: await sessions.reset(key, { kind: 'reset' }) };
    },
    'sessions.delete': ({ key }) => {
      const lane = lanes.laneInfo(key);
      if (lane.running || lane.queued > 0) {
        throw new ClawError('conflict', `${key} has a running turn or queued messages; abort them with chat.abort or wait, then delete.`);
      }
      const deleted = registry.delete(key);
      if (deleted) sessions.changed(key, 'deleted');
      return { deleted };
    },
    'sessions.patch': async ({ key, patch }) => {
      if (patch.model) await checkModelRef(providers, patch.model);
      registry.patch(key, patch);
      sessions.changed(key, 'updated');
      return { session: sessions.summaryOf(key) };
    },
    'chat.send': async (params, caller) => {
      const idempotencyKey = params.idempotencyKey ?? randomUUID();
      const result = await inbound.accept(
        inboundFromChatSend({
          sessionKey: params.sessionKey,
          text: params.text,
          idempotencyKey,
          queueMode: params.queueMode,
          clientId: caller.clientId,
        }),
      );
      return { runId: result.runId, messageId: idempotencyKey, idempotencyKey, status: result.status };
    },
    'chat.abort': ({ sessionKey, runId }) => {
      registry.resolve(sessionKey);
      return lanes.abort(sessionKey, runId);
    },
    'sessions.search': (params) => core.search(params),
    'commands.list': async () => ({ commands: await commands.list() }),
    'commands.run': ({ sessionKey, text }, caller) => commands.run(sessionKey, text, caller.scopes),
  };
}
