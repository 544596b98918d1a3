import type { SessionSummary } from '../../protocol/index.js';
import type { SessionModelInfo } from './host.js';

/**
 * What `session_status` answers: the same facts as `/status`, as data. Running
 * children are sessions this one spawned whose turn runs or waits on its lane.
 */
export function sessionStatus(session: SessionSummary, model: SessionModelInfo, all: readonly SessionSummary[]): Record<string, unknown> {
  const children = all.filter((other) => other.spawnedBy === session.key);
  const window = model.contextWindow;
  return {
    sessionKey: session.key,
    agentId: session.agentId,
    kind: session.kind,
    model: model.model ?? null,
    ...(model.provider ? { provider: model.provider } : {}),
    tokens: { input: session.tokens.input, output: session.tokens.output },
    context: {
      used: session.tokens.context,
      ...(window ? { window, percent: Math.round((session.tokens.context / window) * 100) } : {}),
    },
    queue: { running: session.running, queued: session.queued, ...(session.queueMode ? { mode: session.queueMode } : {}) },
    children: { running: children.filter((child) => child.running || child.queued > 0).length, total: children.length },
    compactions: session.compactionCount,
    costUsd: session.costUsd,
    updatedAt: new Date(session.updatedAt).toISOString(),
  };
}
