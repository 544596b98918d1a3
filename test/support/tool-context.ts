import type { ToolContext, ToolsRuntime } from '../../source/tools/index.js';

/**
 * What agent `main`'s own session hands a tool: its workspace, and approvals
 * through the runtime's inbox (so a test resolves them there). `overrides`
 * replaces any field, e.g. a signal the test aborts.
 */
export function mainSessionContext(tools: Pick<ToolsRuntime, 'inbox'>, workspaceDir: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir,
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    approvals: tools.inbox.gate('main', 'agent:main:main'),
    ...overrides,
  };
}
