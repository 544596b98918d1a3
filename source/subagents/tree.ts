import type { SubagentNode } from '../protocol/index.js';
import type { SpawnedRecord } from './records.js';

/** Finished runs older than the newest this many stay out of the tree (the ledger keeps them). */
const FINISHED_SHOWN = 100;

/** The tree as the protocol carries it: every open run, and the latest finished ones, oldest first. */
export function buildNodes(
  runs: readonly SpawnedRecord[],
  state: (run: SpawnedRecord) => Pick<SubagentNode, 'status' | 'endedAt' | 'lastTool' | 'tokens' | 'delivery'>,
): SubagentNode[] {
  const nodes = runs.map(
    (run): SubagentNode => ({
      key: run.childKey,
      parentKey: run.parentKey,
      runId: run.runId,
      label: run.label,
      startedAt: run.at,
      depth: run.depth,
      ...(run.runtime ? { runtime: run.runtime } : {}),
      ...state(run),
    }),
  );
  // A session-mode child that ran again is one node: its latest run.
  const latest = new Map<string, SubagentNode>();
  for (const node of nodes) latest.set(node.key, node);
  const unique = [...latest.values()];
  const finished = unique.filter((n) => n.endedAt !== undefined).sort((a, b) => b.endedAt! - a.endedAt!);
  const dropped = new Set(finished.slice(FINISHED_SHOWN).map((n) => n.key));
  return unique.filter((n) => !dropped.has(n.key)).sort((a, b) => a.startedAt - b.startedAt);
}
