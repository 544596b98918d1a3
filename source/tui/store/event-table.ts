import type { EventName, PayloadOf } from '../../protocol/index.js';
import { appendItems, reduceAgentEvent, reduceChatEvent, updateChat } from './chat-reducer.js';
import { reduceConfigStatus } from './config-reducer.js';
import { reduceApprovalRequested, reduceApprovalResolved, reduceSessionsChanged } from './reducers.js';
import { reduceMessageAccepted, reducePresence, reduceProgress, reduceRetryAnswered } from './live-reducers.js';
import { reduceSampling } from './mcp-reducers.js';
import { reduceElicitationRequested, reduceElicitationResolved } from './elicitation.js';
import type { TuiState } from './state.js';

type Reducer<E extends EventName> = (state: TuiState, payload: PayloadOf<E>, now: number) => TuiState;

/**
 * Gateway event → the small reducer of the feature it belongs to. A new event
 * is a new row here, never a new branch somewhere else.
 */
export const eventTable: { [E in EventName]?: Reducer<E> } = {
  chat: (state, payload) => reduceRetryAnswered(reduceChatEvent(state, payload), payload),
  agent: (state, payload, now) => reduceProgress(reduceAgentEvent(state, payload), payload, now),
  'message.accepted': (state, payload) => reduceMessageAccepted(state, payload),
  presence: (state, payload) => reducePresence(state, payload),
  'sessions.changed': (state, payload) => reduceSessionsChanged(state, payload),
  lanes: (state, payload) => ({ ...state, lanes: payload }),
  context: (state, payload) => ({ ...state, context: { ...state.context, [payload.sessionKey]: payload } }),
  subagents: (state, payload) => ({ ...state, subagents: payload.nodes }),
  schedule: (state, payload) => ({ ...state, schedule: payload }),
  'approval.requested': (state, payload) => reduceApprovalRequested(state, payload),
  'approval.resolved': (state, payload, now) => reduceApprovalResolved(state, payload, now),
  config: (state, payload) => reduceConfigStatus(state, payload),
  'skills.changed': (state, payload) =>
    updateChat(state, state.currentKey, (log) =>
      appendItems(log, [{ kind: 'notice', id: `skills:${payload.agentId}:${payload.generation}`, text: payload.notice }]),
    ),
  'pairing.requested': (state, payload) =>
    updateChat(state, state.currentKey, (log) => appendItems(log, [{ kind: 'notice', id: `pairing:${payload.pairing.code}`, text: payload.notice }])),
  'channels.status': (state, payload) =>
    updateChat({ ...state, channels: payload.channels }, state.currentKey, (log) =>
      appendItems(
        log,
        payload.channels
          .filter(
            (channel) =>
              channel.state === 'error' && !log.items.some((item) => item.id === `channel-error:${channel.channel}:${channel.accountId}:${channel.reason}`),
          )
          .map((channel) => ({
            kind: 'notice' as const,
            id: `channel-error:${channel.channel}:${channel.accountId}:${channel.reason}`,
            text: `${channel.channel}:${channel.accountId} is in error: ${channel.reason ?? 'no reason given'} (\`claw channels status\`)`,
          })),
      ),
    ),
  'plugins.status': (state, payload) =>
    updateChat({ ...state, plugins: payload.plugins }, state.currentKey, (log) =>
      appendItems(
        log,
        payload.plugins
          .filter((plugin) => plugin.state === 'error' && !log.items.some((item) => item.id === `plugin-error:${plugin.id}:${plugin.error}`))
          .map((plugin) => ({
            kind: 'notice' as const,
            id: `plugin-error:${plugin.id}:${plugin.error}`,
            text: `plugin ${plugin.id} stopped: ${plugin.error ?? 'no reason given'} (\`claw plugins logs ${plugin.id}\`, then \`claw plugins restart ${plugin.id}\`)`,
          })),
      ),
    ),
  'mcp.sampling': (state, payload) => reduceSampling(state, payload),
  'mcp.auth.required': (state, payload) =>
    updateChat(state, state.currentKey, (log) =>
      appendItems(log, [
        {
          kind: 'notice',
          id: `mcp-auth:${payload.server}:${payload.url}`,
          text: `MCP server "${payload.server}" needs a login: open ${payload.url} — the gateway catches the redirect. From a browser on another machine, paste the address it ends on into \`claw mcp login ${payload.server}\` on the gateway's machine.`,
        },
      ]),
    ),
  'mcp.elicitation.requested': (state, payload) => reduceElicitationRequested(state, payload),
  'mcp.elicitation.resolved': (state, payload) => reduceElicitationResolved(state, payload),
  cooldowns: (state, payload) => ({ ...state, cooldowns: payload.cooldowns }),
  spend: (state, { notice, ...spend }) =>
    notice
      ? updateChat({ ...state, spend }, state.currentKey, (log) =>
          appendItems(log, [{ kind: 'notice', id: `spend:${notice.kind}:${notice.text}`, text: notice.text }]),
        )
      : { ...state, spend },
  'compaction.preview': (state, preview) => {
    const progress = state.progress[preview.sessionKey];
    return {
      ...state,
      compactionPreviews: { ...state.compactionPreviews, [preview.sessionKey]: preview },
      ...(progress ? { progress: { ...state.progress, [preview.sessionKey]: { ...progress, previewing: true } } } : {}),
    };
  },
  'compaction.preview.resolved': (state, { id, sessionKey, decision }) => {
    if (state.compactionPreviews[sessionKey]?.id !== id) return state;
    const { [sessionKey]: _gone, ...rest } = state.compactionPreviews;
    const progress = state.progress[sessionKey];
    const next = {
      ...state,
      compactionPreviews: rest,
      ui: { ...state.ui, previewDetails: false },
      ...(progress ? { progress: { ...state.progress, [sessionKey]: { ...progress, previewing: false } } } : {}),
    };
    if (decision !== 'postpone') return next;
    return updateChat(next, sessionKey, (log) =>
      appendItems(log, [
        { kind: 'notice', id: `preview:${id}`, text: 'Compaction postponed for this turn; it is offered again next time (/compact runs it now).' },
      ]),
    );
  },
  'browser.tabs': (state, { sessionKey, tabs }) => ({ ...state, browserTabs: { ...state.browserTabs, [sessionKey]: tabs } }),
  shutdown: (state, payload) => ({ ...state, conn: { ...state.conn, reason: `gateway stopping: ${payload.reason}` } }),
};

export function reduceEvent<E extends EventName>(state: TuiState, event: E, payload: PayloadOf<E>, now: number): TuiState {
  const reducer = eventTable[event] as Reducer<E> | undefined;
  return reducer ? reducer(state, payload, now) : state;
}
