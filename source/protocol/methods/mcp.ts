import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const mcpServerInfo = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    transport: z.enum(['stdio', 'http', 'sse']),
    /** Command line or URL. */
    target: z.string(),
    trust: z.enum(['ask', 'allow']),
    /** `needs-login`: the server wants OAuth authorization; `claw mcp login NAME` (or `authUrl`) completes it. */
    state: z.enum(['connecting', 'ready', 'error', 'disabled', 'needs-login']),
    toolCount: z.number().int(),
    /** Registered names, `mcp__<server>__<tool>`. */
    tools: z.array(z.string()),
    lastError: z.string().optional(),
    lastErrorAt: z.number().optional(),
    connectedAt: z.number().optional(),
    /** When the next reconnect attempt is due (state `error`). */
    nextRetryAt: z.number().optional(),
    /** The server's last stderr line (stdio); `mcp.logs` has the rest. */
    lastStderr: z.string().optional(),
    /** Tools the server offers that claw does not, with why (e.g. task-only tools). */
    skippedTools: z.array(z.strictObject({ name: z.string(), reason: z.string() })).optional(),
    /** Optional lists the server declared but could not give (it is used without them). */
    warnings: z.array(z.string()).optional(),
    promptCount: z.number().int().optional(),
    resourceCount: z.number().int().optional(),
    resourceTemplateCount: z.number().int().optional(),
    /** While a login is pending: the authorization URL to open (the gateway catches the redirect). */
    authUrl: z.string().optional(),
  }),
);
export type McpServerInfo = z.infer<typeof mcpServerInfo>;

export const mcpMethods = {
  'mcp.list': defineMethod({
    name: 'mcp.list',
    description: 'Configured MCP servers with their connection state, tools and last error.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ servers: z.array(mcpServerInfo) }),
    scope: 'read',
    mutating: false,
  }),
  'mcp.login': defineMethod({
    name: 'mcp.login',
    description:
      'Start (again) the OAuth login of a remote MCP server: answers with the authorization URL to open; the gateway catches the redirect on its loopback listener. With callbackUrl (the address the browser ended on, from another machine), finishes the login with it.',
    params: () => z.strictObject({ name: z.string().min(1), callbackUrl: z.string().url().optional(), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ server: mcpServerInfo, url: z.string().optional() }),
    scope: 'admin',
    mutating: true,
  }),
  'mcp.logout': defineMethod({
    name: 'mcp.logout',
    description: "Forget a remote MCP server's OAuth tokens and registration (credentials/mcp/<name>.json); it needs a login again.",
    params: () => z.strictObject({ name: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ removed: z.boolean(), server: mcpServerInfo }),
    scope: 'admin',
    mutating: true,
  }),
};
