/**
 * What the agent tells whoever listens to its lifecycle (core fills this from
 * its lifecycle emitter; the agent never imports core). `beforeTool` may
 * refuse a call: the model then gets the reason as the tool's result.
 */
export interface AgentHooks {
  beforeTool(call: { sessionKey: string; runId: string; tool: string; args: Record<string, unknown> }): Promise<{ reason: string } | undefined>;
  afterTool(call: { sessionKey: string; runId: string; tool: string; isError: boolean }): void;
  /** Text added to this turn's bootstrap context, each part named by its source. */
  bootstrap(session: { sessionKey: string; agentId: string }): Promise<Array<{ source: string; text: string }>>;
  compaction(phase: 'before' | 'after', info: { sessionKey: string; tokensBefore?: number; tokensAfter?: number }): void;
}

export const blockedToolResult = (reason: string): string => `Blocked by a hook before it ran: ${reason}. Do not retry this call unchanged.`;
