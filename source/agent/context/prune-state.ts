import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WireApi } from '../../providers/index.js';
import type { HistoryMessage } from '../turn-types.js';
import { pruneToolResults, type PrunedResult, type PruneMode, type PruningSettings, type PruneOutput } from './pruning.js';

/** `context.pruning` as the config holds it. */
export type PruningConfig = PruningSettings & { cacheTtlSeconds?: number | undefined };

/** One session's pruning across its turns: what was decided, and when the model was last called (the cache's age). */
export interface PruneState {
  decided: Map<string, PruneMode>;
  lastCallAt?: number;
}

/** What a context window needs to prune a session's tool results. */
export interface SessionPruning {
  settings: PruningConfig;
  state: PruneState;
  now: () => number;
  /** The agent's workspace: whole results are written to `.tool-results/` there, for `read`. */
  workspaceDir?: string;
}

/** The folder, relative to the workspace, where pruned results are kept whole. */
/** Characters per token for the savings line (an estimate, as the line says). */
const CHARS_PER_TOKEN = 4;

const TOOL_RESULTS_DIR = '.tool-results';

/** Anthropic keeps a prompt cache 5 minutes by default; the others' caches are not worth waiting for. */
export function cacheTtlMs(settings: PruningConfig, family: WireApi): number {
  return (settings.cacheTtlSeconds ?? (family === 'anthropic' ? 300 : 0)) * 1000;
}

/**
 * Prunes `messages` for one model call. New decisions only once the prompt
 * cache has gone cold (or `force`, when the window would overflow otherwise);
 * the state keeps them for the next calls.
 */
export function pruneForCall(
  pruning: SessionPruning,
  messages: readonly HistoryMessage[],
  options: { windowShare: number; family: WireApi; decide: boolean; force?: boolean },
): PruneOutput {
  const { state, settings } = pruning;
  const cold = state.lastCallAt === undefined || pruning.now() - state.lastCallAt >= cacheTtlMs(settings, options.family);
  const out = pruneToolResults(messages, {
    settings,
    windowShare: options.windowShare,
    decided: state.decided,
    mayDecide: options.decide && (cold || options.force === true),
    ...(pruning.workspaceDir ? { storedAt: (message: Extract<HistoryMessage, { role: 'toolResult' }>) => keepWhole(pruning.workspaceDir!, message) } : {}),
  });
  state.decided = out.decided;
  return out;
}

function keepWhole(workspaceDir: string, message: Extract<HistoryMessage, { role: 'toolResult' }>): string | undefined {
  const name = `${message.id.replace(/[^\w.-]/g, '_')}.txt`;
  const file = join(workspaceDir, TOOL_RESULTS_DIR, name);
  try {
    if (!existsSync(file)) {
      mkdirSync(join(workspaceDir, TOOL_RESULTS_DIR), { recursive: true });
      writeFileSync(file, message.content);
    }
    return `${TOOL_RESULTS_DIR}/${name}`;
  } catch {
    return undefined;
  }
}

/** The `/context list` line: how many results are pruned and what that saves. */
export function prunedNote(pruned: readonly PrunedResult[]): string | undefined {
  if (pruned.length === 0) return undefined;
  const trims = pruned.filter((p) => p.mode === 'trim').length;
  const saved = pruned.reduce((total, p) => total + p.chars - p.sentChars, 0);
  const tools = [...new Set(pruned.map((p) => p.tool))].slice(0, 4).join(', ');
  return `pruned         ${pruned.length} old tool results (${trims} cut to head and tail, ${pruned.length - trims} cleared; ${tools}): ~${Math.round(saved / CHARS_PER_TOKEN).toLocaleString('en-US')} tokens saved, the transcript keeps them whole`;
}
