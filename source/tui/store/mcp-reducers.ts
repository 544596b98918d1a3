import type { PayloadOf } from '../../protocol/index.js';
import { appendItems, updateChat } from './chat-reducer.js';
import type { TuiState } from './state.js';

/** What the operator reads when a server spends the agent's model (MCP sampling). */
export function samplingNotice(payload: PayloadOf<'mcp.sampling'>): string {
  const who = `MCP server "${payload.server}"`;
  if (payload.phase === 'start') return `${who} asked ${payload.model} for a completion (at most ${payload.maxTokens} tokens).`;
  if (payload.phase === 'end')
    return `${who} got its completion from ${payload.model}${payload.outputTokens !== undefined ? ` (${payload.outputTokens} tokens)` : ''}.`;
  return `${who} asked ${payload.model} for a completion, which failed: ${payload.error ?? 'unknown error'}`;
}

export function reduceSampling(state: TuiState, payload: PayloadOf<'mcp.sampling'>): TuiState {
  return updateChat(state, state.currentKey, (log) =>
    appendItems(log, [{ kind: 'notice', id: `sampling:${payload.id}:${payload.phase}`, text: samplingNotice(payload) }]),
  );
}
