import { estimateTokens, type WireApi } from '../../providers/index.js';

const HEAD_SHARE = 0.7;
const TAIL_SHARE = 0.2;

export interface GuardedResult {
  content: string;
  truncated: boolean;
  /** Characters removed from the middle. */
  cutChars: number;
}

/** How to get at the part that was cut, in terms of the tool that produced it. */
function readTheRest(toolName: string): string {
  if (toolName === 'read') return 'call read again with from/to line numbers for the part you need';
  if (toolName === 'exec' || toolName === 'process')
    return 'run the command again writing its output to a file, then read that file in parts, or filter the output (grep, head, tail)';
  if (toolName === 'web_fetch') return 'fetch the page again with a smaller maxChars or a more specific URL';
  return 'call the tool again with a narrower request';
}

/**
 * Caps one tool result at `maxTokens`: keeps the head (70 %) and the tail
 * (20 %) and puts a marker in between saying how much was cut and how to read
 * the rest. The estimate is proportional, so the result lands at or just
 * under the cap without re-estimating in a loop.
 */
export function guardToolResult(content: string, toolName: string, maxTokens: number, family: WireApi = 'openai'): GuardedResult {
  const tokens = estimateTokens(content, family);
  if (tokens <= maxTokens) return { content, truncated: false, cutChars: 0 };
  const marker = (cut: number): string =>
    `\n\n[… ${cut} of ${content.length} characters of this ${toolName} result were cut to fit the context window; to see them, ${readTheRest(toolName)} …]\n\n`;
  // The marker is paid for out of the same budget; sized with the widest number it can hold.
  const markerTokens = estimateTokens(marker(content.length), family);
  const budgetChars = Math.floor((content.length * Math.max(0, maxTokens - markerTokens)) / tokens);
  const head = Math.floor(budgetChars * HEAD_SHARE);
  const tail = Math.floor(budgetChars * TAIL_SHARE);
  const cutChars = content.length - head - tail;
  return { content: content.slice(0, head) + marker(cutChars) + content.slice(content.length - tail), truncated: true, cutChars };
}

/** The largest a single tool result may be in a window. */
export function toolResultCap(window: number, maxShare: number): number {
  return Math.max(1, Math.floor(window * maxShare));
}
