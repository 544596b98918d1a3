import { z } from 'zod';
import { defineMethod } from '../define.js';

export const mcpServerInfo = z.strictObject({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** Command line or URL. */
  target: z.string(),
  trust: z.enum(['ask', 'allow']),
  state: z.enum(['connecting', 'ready', 'error', 'disabled']),
  toolCount: z.number().int(),
  /** Registered names, `mcp__<server>__<tool>`. */
  tools: z.array(z.string()),
  lastError: z.string().optional(),
  lastErrorAt: z.number().optional(),
  connectedAt: z.number().optional(),
  /** When the next reconnect attempt is due (state `error`). */
  nextRetryAt: z.number().optional(),
});
export type McpServerInfo = z.infer<typeof mcpServerInfo>;

export const mcpMethods = {
  'mcp.list': defineMethod({
    name: 'mcp.list',
    description: 'Configured MCP servers with their connection state, tools and last error.',
    params: z.strictObject({}).optional(),
    result: z.strictObject({ servers: z.array(mcpServerInfo) }),
    scope: 'read',
    mutating: false,
  }),
};
