import { z } from 'zod';
import { defineEvent } from '../define.js';
import { mcpServerInfo } from '../methods/mcp.js';
import { mcpElicitationRecord } from '../methods/mcp-elicitation.js';

export const mcpEvents = {
  'mcp.changed': defineEvent({
    name: 'mcp.changed',
    description: "A server's state, tools, prompts or resources changed; carries the whole server list so clients need not poll mcp.list.",
    payload: () => z.strictObject({ server: z.string(), part: z.enum(['state', 'tools', 'prompts', 'resources']), servers: z.array(mcpServerInfo) }),
    scope: 'read',
  }),
  'mcp.auth.required': defineEvent({
    name: 'mcp.auth.required',
    description:
      'A remote MCP server needs the owner to log in (OAuth): open url; the gateway catches the redirect, so any browser that can reach this machine completes it (`claw mcp login NAME` takes the final address from another machine).',
    payload: () => z.strictObject({ server: z.string(), url: z.string(), at: z.number() }),
    scope: 'admin',
  }),
  'mcp.elicitation.requested': defineEvent({
    name: 'mcp.elicitation.requested',
    description: 'An MCP server asks the operator a question (a form); answer with mcp.elicitation.respond.',
    payload: () => z.strictObject({ elicitation: mcpElicitationRecord }),
    scope: 'read',
  }),
  'mcp.sampling': defineEvent({
    name: 'mcp.sampling',
    description:
      "A server configured with sampling: true asked the agent's model for a completion (start), and how it ended (end with the tokens used, or error).",
    payload: () =>
      z.strictObject({
        id: z.string(),
        server: z.string(),
        phase: z.enum(['start', 'end', 'error']),
        model: z.string(),
        /** The cap the request ran under: the server's maxTokens, bounded by claw's limit. */
        maxTokens: z.number().int().positive(),
        outputTokens: z.number().int().min(0).optional(),
        error: z.string().optional(),
        at: z.number(),
      }),
    scope: 'read',
  }),
  'mcp.elicitation.resolved': defineEvent({
    name: 'mcp.elicitation.resolved',
    description: 'A server question was answered, declined on timeout, or withdrawn by its server.',
    payload: () => z.strictObject({ elicitation: mcpElicitationRecord }),
    scope: 'read',
  }),
};
