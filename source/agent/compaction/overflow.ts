import type { WireApi } from '../../providers/index.js';
import { guardToolResult, toolResultCap } from '../context/index.js';
import type { HistoryMessage } from '../turn-types.js';

/**
 * Shares of the window tool results are cut to on successive overflow
 * retries: tighter each time, and finite, so recovery always ends.
 */
export const SHRINK_SHARES: readonly number[] = [0.25, 0.1];

export type RecoveryStep = { kind: 'compact' } | { kind: 'shrink'; share: number } | { kind: 'give_up' };

export interface RecoveryState {
  compacted: boolean;
  shrinks: number;
}

export function initialRecoveryState(): RecoveryState {
  return { compacted: false, shrinks: 0 };
}

/**
 * After a provider's context-length error: compact once (when there is older
 * history to fold), then cut tool results tighter, then stop. The caller
 * records the step in `state` and retries the model call after each one.
 */
export function nextRecoveryStep(state: RecoveryState, canCompact: boolean): RecoveryStep {
  if (!state.compacted && canCompact) return { kind: 'compact' };
  const share = SHRINK_SHARES[state.shrinks];
  if (share !== undefined) return { kind: 'shrink', share };
  return { kind: 'give_up' };
}

/** Tool results of a history cut to `share` of the window; the transcript on disk keeps them whole. */
export function shrinkToolResults(
  messages: readonly HistoryMessage[],
  window: number,
  share: number,
  family: WireApi,
): { messages: HistoryMessage[]; shrunk: number } {
  const cap = toolResultCap(window, share);
  let shrunk = 0;
  const out = messages.map((message) => {
    if (message.role !== 'toolResult') return message;
    const guarded = guardToolResult(message.content, message.toolName, cap, family);
    if (!guarded.truncated) return message;
    shrunk += 1;
    return { ...message, content: guarded.content };
  });
  return { messages: out, shrunk };
}

/**
 * The error a turn ends with when recovery ran out of steps: the window the
 * provider stated (when it differs from the configured one, that is the
 * fix), and what was actually tried.
 */
export function overflowFailure(
  model: string,
  configured: number,
  seen: { stated?: number | undefined; recoveries: number },
): { message: string; hint: string } {
  const window =
    seen.stated !== undefined && seen.stated !== configured
      ? `${seen.stated} tokens as the provider reports it; claw's config says ${configured}`
      : `${configured} tokens`;
  const tried =
    seen.recoveries === 0
      ? 'and there was nothing older to compact or cut'
      : `even after ${seen.recoveries} attempt${seen.recoveries === 1 ? '' : 's'} to compact it and cut tool results`;
  const hint =
    seen.stated !== undefined && seen.stated < configured
      ? `Set models.providers.<provider>.models.<model>.contextWindow to ${seen.stated} so claw compacts in time, then /retry; or start a fresh session with /new.`
      : 'Start a fresh session with /new (this transcript stays on disk), or switch to a model with a larger window with /model.';
  return { message: `The conversation no longer fits in the context window of ${model} (${window}), ${tried}.`, hint };
}
