import { z } from 'zod';

/** Settings every server has besides how to reach it. */
const common = {
  /** `ask`: every call waits for an operator in the approval inbox; `allow`: calls run directly. */
  trust: z.enum(['ask', 'allow']).default('ask'),
  enabled: z.boolean().default(true),
  /** Longest a single tool call may take before it fails with a timeout result. */
  timeoutMs: z.number().int().positive().default(60_000),
};

/** The `mcpServers` shape shared with other MCP clients. */
export const mcpServerEntry = z.union([
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    ...common,
  }),
  z.strictObject({
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  }),
]);

export const mcpServersSection = z.record(z.string(), mcpServerEntry);
