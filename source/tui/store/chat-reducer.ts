import type { AgentEventPayload, ChatEventPayload } from '../../protocol/index.js';
import { summarizeArgs } from '../text/format.js';
import { keepNewest } from './history-window.js';
import { emptyChat, type ChatItem, type ChatLog, type TuiState } from './state.js';

/** Appends items keeping only the newest CHAT_WINDOW; older ones stay pageable. */
export function appendItems(log: ChatLog, items: ChatItem[]): ChatLog {
  if (items.length === 0) return log;
  return keepNewest({ ...log, items: log.items.concat(items) });
}

export function updateChat(state: TuiState, key: string, update: (log: ChatLog) => ChatLog): TuiState {
  const before = state.chats[key] ?? emptyChat();
  const after = update(before);
  if (after === before) return state;
  return { ...state, chats: { ...state.chats, [key]: after } };
}

/** Moves streamed text into a settled assistant item (before a tool call or at run end). */
function settleStream(log: ChatLog): ChatLog {
  if (!log.streaming) return log;
  const { runId, text } = log.streaming;
  const withoutStream: ChatLog = { ...log };
  delete withoutStream.streaming;
  if (text.trim() === '') return withoutStream;
  return appendItems(withoutStream, [{ kind: 'assistant', id: `${runId}:${log.items.length}`, text }]);
}

export function reduceChatEvent(state: TuiState, payload: ChatEventPayload): TuiState {
  const key = payload.sessionKey;
  const next = updateChat(state, key, (log) => {
    switch (payload.state) {
      case 'delta': {
        const previous = log.streaming?.runId === payload.runId ? log.streaming.text : '';
        return { ...log, running: true, runId: payload.runId, streaming: { runId: payload.runId, text: previous + payload.delta } };
      }
      case 'final': {
        const base: ChatLog = { ...log };
        delete base.streaming;
        if (payload.suppressed || payload.text === '') return base;
        return appendItems(base, [
          { kind: 'assistant', id: `${payload.runId}:final:${log.items.length}`, text: payload.text, ...(payload.entryId ? { entryId: payload.entryId } : {}) },
        ]);
      }
      case 'aborted':
        return appendItems({ ...settleStream(log), running: false }, [
          { kind: 'notice', id: `${payload.runId}:aborted`, text: `Turn aborted: ${payload.reason}` },
        ]);
      case 'error':
        return appendItems({ ...settleStream(log), running: false }, [
          {
            kind: 'error',
            id: `${payload.runId}:error:${log.items.length}`,
            message: payload.message,
            ...(payload.hint ? { hint: payload.hint } : {}),
          },
        ]);
    }
  });
  if (payload.state === 'final' && key !== state.currentKey) {
    return { ...next, unread: { ...next.unread, [key]: (next.unread[key] ?? 0) + 1 } };
  }
  return next;
}

function updateTool(log: ChatLog, toolCallId: string, change: (item: Extract<ChatItem, { kind: 'tool' }>) => ChatItem): ChatLog {
  for (let i = log.items.length - 1; i >= 0; i--) {
    const item = log.items[i]!;
    if (item.kind === 'tool' && item.id === toolCallId) {
      const items = log.items.slice();
      items[i] = change(item);
      return { ...log, items };
    }
  }
  return log;
}

export function reduceAgentEvent(state: TuiState, payload: AgentEventPayload): TuiState {
  const key = payload.sessionKey;
  switch (payload.stream) {
    case 'lifecycle':
      return updateChat(state, key, (log) => {
        if (payload.phase === 'start') return { ...log, running: true, runId: payload.runId };
        if (payload.phase === 'queued') return log;
        const settled = { ...settleStream(log), running: false };
        // The chat stream usually reported the same failure already, with its hint.
        const reported = log.items.slice(-3).some((i) => i.kind === 'error' && i.id.startsWith(`${payload.runId}:`));
        if (payload.phase === 'error' && payload.detail && !reported) {
          return appendItems(settled, [{ kind: 'error', id: `${payload.runId}:lifecycle`, message: payload.detail }]);
        }
        return settled;
      });
    case 'tool':
      return updateChat(state, key, (log) => {
        if (payload.phase === 'start') {
          return appendItems(settleStream(log), [
            {
              kind: 'tool',
              id: payload.toolCallId,
              name: payload.name,
              args: summarizeArgs(payload.args),
              output: payload.output ?? '',
              status: 'running',
            },
          ]);
        }
        return updateTool(log, payload.toolCallId, (item) => ({
          ...item,
          output: payload.output ?? item.output,
          status: payload.phase === 'end' ? (payload.isError ? 'error' : 'done') : item.status,
        }));
      });
    case 'usage': {
      const before = state.turnCost[key];
      const same = before?.runId === payload.runId ? before : { runId: payload.runId, usd: 0, tokens: 0, calls: 0 };
      const { usage } = payload;
      const tokens = usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
      const cost = { runId: payload.runId, usd: same.usd + (usage.cost ?? 0), tokens: same.tokens + tokens, calls: same.calls + 1 };
      return { ...state, runModel: { ...state.runModel, [key]: payload.model }, turnCost: { ...state.turnCost, [key]: cost } };
    }
    case 'retry':
      return state;
    case 'notice':
      return updateChat(state, key, (log) => appendItems(log, [{ kind: 'notice', id: `${payload.runId}:notice:${payload.text}`, text: payload.text }]));
    case 'compaction':
      // A /compact command (run id `compact-…`) answers its runner with its own reply or error.
      if (payload.phase === 'start' || (payload.phase === 'error' && payload.runId.startsWith('compact-'))) return state;
      return updateChat(state, key, (log) =>
        appendItems(log, [
          payload.phase === 'end'
            ? {
                kind: 'compaction',
                id: `${payload.runId}:compaction:${log.items.length}`,
                before: payload.tokensBefore,
                ...(payload.tokensAfter !== undefined ? { after: payload.tokensAfter } : {}),
              }
            : {
                kind: 'error',
                id: `${payload.runId}:compaction:${log.items.length}`,
                message: `Compaction failed: ${payload.detail ?? 'unknown error'}`,
                hint: 'Run /compact again, or /new to start a fresh session.',
              },
        ]),
      );
  }
}
