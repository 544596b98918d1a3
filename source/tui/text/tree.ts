import type { SubagentNode } from '../../protocol/index.js';
import { formatDuration, formatTokens } from './format.js';

export interface TreeRow {
  key: string;
  runId?: string;
  prefix: string;
  label: string;
  status: SubagentNode['status'];
  elapsed: string;
  lastTool?: string;
  tokens?: string;
  delivery?: NonNullable<SubagentNode['delivery']>;
}

/** The nodes under `rootKey` (its children, theirs, …); every node when no root is given. */
export function descendantsOf(nodes: readonly SubagentNode[], rootKey: string): SubagentNode[] {
  const keys = new Set([rootKey]);
  const found: SubagentNode[] = [];
  // Parents start before their children, so one pass in start order reaches every depth.
  for (const node of [...nodes].sort((a, b) => a.startedAt - b.startedAt)) {
    if (!keys.has(node.parentKey)) continue;
    keys.add(node.key);
    found.push(node);
  }
  return found;
}

/** Flattens child runs into indented rows under their parent session, oldest first. */
export function buildSubagentTree(nodes: readonly SubagentNode[], now: number): TreeRow[] {
  const byParent = new Map<string, SubagentNode[]>();
  const keys = new Set(nodes.map((n) => n.key));
  for (const node of nodes) {
    const list = byParent.get(node.parentKey) ?? [];
    list.push(node);
    byParent.set(node.parentKey, list);
  }
  const rows: TreeRow[] = [];
  const visit = (node: SubagentNode, indent: string, last: boolean): void => {
    rows.push({
      key: node.key,
      ...(node.runId ? { runId: node.runId } : {}),
      prefix: `${indent}${last ? '└─' : '├─'}`,
      label: node.label,
      status: node.status,
      elapsed: formatDuration((node.endedAt ?? now) - node.startedAt),
      ...(node.lastTool ? { lastTool: node.lastTool } : {}),
      ...(node.tokens ? { tokens: formatTokens(node.tokens) } : {}),
      ...(node.delivery ? { delivery: node.delivery } : {}),
    });
    const children = (byParent.get(node.key) ?? []).sort((a, b) => a.startedAt - b.startedAt);
    children.forEach((child, i) => visit(child, `${indent}${last ? '  ' : '│ '}`, i === children.length - 1));
  };
  const roots = nodes.filter((n) => !keys.has(n.parentKey)).sort((a, b) => a.startedAt - b.startedAt);
  roots.forEach((root, i) => visit(root, '', i === roots.length - 1));
  return rows;
}
