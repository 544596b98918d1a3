import type { AgentEventPayload, PayloadOf } from '../../protocol/index.js';
import { childResultItems } from './child-results.js';
import { appendItems, updateChat } from './chat-reducer.js';
import { selectClientName } from './selectors.js';
import type { TuiState } from './state.js';

/** The chat id of a user message, shared by the sender's local echo and the gateway's event. */
export function userItemId(messageId: string): string {
  return `msg:${messageId}`;
}

/** A user message accepted from any client or channel; the sender's own echo is already there. */
export function reduceMessageAccepted(state: TuiState, payload: PayloadOf<'message.accepted'>): TuiState {
  const id = userItemId(payload.messageId);
  // The sending client's name and host from presence, else what the channel said of its sender.
  const from = payload.clientId && state.clients[payload.clientId] ? selectClientName(state, payload.clientId) : (payload.sender ?? payload.channel);
  const children = payload.channel === 'subagent' ? childResultItems(payload.text, id, payload.entryId) : undefined;
  const next = updateChat(state, payload.sessionKey, (log) => {
    if (log.items.some((item) => item.id === id || item.id === `${id}:child:0` || (payload.entryId !== undefined && item.entryId === payload.entryId)))
      return log;
    return appendItems(log, children ?? [{ kind: 'user', id, text: payload.text, ...(payload.entryId ? { entryId: payload.entryId } : {}), from }]);
  });
  if (next === state || payload.sessionKey === state.currentKey) return next;
  return { ...next, unread: { ...next.unread, [payload.sessionKey]: (next.unread[payload.sessionKey] ?? 0) + 1 } };
}

/** Presence replaces the live list; departed clients are kept so past approvers keep their names. */
export function reducePresence(state: TuiState, payload: PayloadOf<'presence'>): TuiState {
  return { ...state, clients: { ...state.clients, ...Object.fromEntries(payload.clients.map((c) => [c.clientId, c])) } };
}

/** A reply streaming in means the provider's retry happened: its countdown would be stale. */
export function reduceRetryAnswered(state: TuiState, payload: PayloadOf<'chat'>): TuiState {
  const current = state.progress[payload.sessionKey];
  if (payload.state !== 'delta' || !current?.retry) return state;
  const { retry: _answered, ...rest } = current;
  return { ...state, progress: { ...state.progress, [payload.sessionKey]: rest } };
}

/** Run start and tool boundaries feed the in-chat progress line. */
export function reduceProgress(state: TuiState, payload: AgentEventPayload, now: number): TuiState {
  const key = payload.sessionKey;
  const current = state.progress[key];
  if (payload.stream === 'lifecycle') {
    if (payload.phase === 'start') return { ...state, progress: { ...state.progress, [key]: { startedAt: now } } };
    if (payload.phase === 'queued' || !current) return state;
    const progress = { ...state.progress };
    delete progress[key];
    return { ...state, progress };
  }
  if (payload.stream === 'retry' && current) {
    const retry = { until: now + payload.delayMs, attempt: payload.attempt, reason: payload.reason, model: payload.model };
    return { ...state, progress: { ...state.progress, [key]: { ...current, retry } } };
  }
  if (payload.stream === 'tool' && current) {
    const tool = payload.phase === 'end' ? undefined : payload.name;
    if (tool === current.tool) return state;
    const next = { ...current };
    if (tool) next.tool = tool;
    else delete next.tool;
    return { ...state, progress: { ...state.progress, [key]: next } };
  }
  return state;
}
