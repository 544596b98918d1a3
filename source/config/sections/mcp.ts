import { z } from 'zod';

/** The `mcpServers` shape shared with other MCP clients. */
export const mcpServerEntry = z.union([
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    trust: z.enum(['ask', 'allow']).default('ask'),
    enabled: z.boolean().default(true),
  }),
  z.strictObject({
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    trust: z.enum(['ask', 'allow']).default('ask'),
    enabled: z.boolean().default(true),
  }),
]);

export const mcpServersSection = z.record(z.string(), mcpServerEntry);
