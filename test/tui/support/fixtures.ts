import type { ApprovalRecord, SessionSummary } from '../../../source/protocol/index.js';

export function approvalFixture(over: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id: 'ap-1',
    kind: 'exec',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command: 'rm -rf ./build && npm run build -- --verbose --output-dir=/tmp/some/really/long/path/that/wraps/around/the/edge/of/the/prompt',
    cwd: '/home/me/project',
    envKeys: [],
    reason: 'not in the allowlist',
    createdAt: 1_000_000,
    expiresAt: 1_000_000 + 30 * 60_000,
    status: 'pending',
    ...over,
  };
}

export function sessionFixture(over: Partial<SessionSummary> = {}): SessionSummary {
  return {
    key: 'agent:main:main',
    agentId: 'main',
    sessionId: 's-1',
    kind: 'main',
    createdAt: 1,
    updatedAt: 2,
    tokens: { input: 100, output: 50, context: 1200 },
    costUsd: 0,
    compactionCount: 0,
    running: false,
    queued: 0,
    ...over,
  };
}
