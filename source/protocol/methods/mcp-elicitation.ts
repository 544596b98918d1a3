import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

/** A question an MCP server asks the operator (elicitation, form mode). */
export const mcpElicitationRecord = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    server: z.string(),
    message: z.string(),
    /** Flat JSON Schema: `properties` of string / number / integer / boolean / enum fields, and `required`. */
    schema: z
      .strictObject({
        type: z.literal('object'),
        properties: z.record(z.string(), z.record(z.string(), z.unknown())),
        required: z.array(z.string()).optional(),
      })
      .loose(),
    createdAt: z.number(),
    /** Declined automatically after this. */
    expiresAt: z.number(),
    status: z.enum(['pending', 'accepted', 'declined', 'cancelled', 'expired']),
    resolvedBy: z.string().optional(),
  }),
);
export type McpElicitationRecord = z.infer<typeof mcpElicitationRecord>;

export const mcpElicitationAnswer = lazySchema(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])));

export const mcpElicitationMethods = {
  'mcp.elicitation.list': defineMethod({
    name: 'mcp.elicitation.list',
    description: 'Questions from MCP servers waiting for the operator.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ elicitations: z.array(mcpElicitationRecord) }),
    scope: 'read',
    mutating: false,
  }),
  'mcp.elicitation.respond': defineMethod({
    name: 'mcp.elicitation.respond',
    description: 'Answer a server question: accept with the form content, decline, or cancel. The first answer wins.',
    params: () =>
      z.strictObject({
        id: z.string(),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: mcpElicitationAnswer.optional(),
        idempotencyKey: z.string().max(128).optional(),
      }),
    result: () => z.strictObject({ elicitation: mcpElicitationRecord }),
    scope: 'approvals',
    mutating: true,
  }),
};
