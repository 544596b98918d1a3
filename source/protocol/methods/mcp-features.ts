import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const mcpStderrLine = lazySchema(() => z.strictObject({ at: z.number(), text: z.string(), marker: z.boolean().optional() }));

export const mcpPromptCommand = lazySchema(() =>
  z.strictObject({
    /** Slash command name without the slash: `mcp__<server>__<prompt>`. */
    command: z.string(),
    server: z.string(),
    prompt: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    arguments: z.array(z.strictObject({ name: z.string(), description: z.string().optional(), required: z.boolean() })),
  }),
);
export type McpPromptCommandInfo = z.infer<typeof mcpPromptCommand>;

export const mcpResourceInfo = lazySchema(() =>
  z.strictObject({
    server: z.string(),
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    mimeType: z.string().optional(),
    description: z.string().optional(),
  }),
);
export const mcpResourceTemplateInfo = lazySchema(() =>
  z.strictObject({
    server: z.string(),
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
  }),
);

const serverParam = lazySchema(() => z.string().min(1));

/** What the TUI and CLI reach of MCP beyond the server list: logs, prompts (slash commands) and resources (`@server:uri`). */
export const mcpFeatureMethods = {
  'mcp.logs': defineMethod({
    name: 'mcp.logs',
    description: "A server's last stderr lines (bounded), oldest first, with a marker at each start.",
    params: () => z.strictObject({ server: serverParam }),
    result: () => z.strictObject({ server: z.string(), lines: z.array(mcpStderrLine) }),
    scope: 'read',
    mutating: false,
  }),
  'mcp.prompts.list': defineMethod({
    name: 'mcp.prompts.list',
    description: 'Prompts of the connected servers, as slash commands with their arguments.',
    params: () => z.strictObject({ server: serverParam.optional() }).optional(),
    result: () => z.strictObject({ prompts: z.array(mcpPromptCommand) }),
    scope: 'read',
    mutating: false,
  }),
  'mcp.prompts.get': defineMethod({
    name: 'mcp.prompts.get',
    description: 'Runs a server prompt with its arguments; the messages are what the slash command puts into the conversation.',
    params: () => z.strictObject({ server: serverParam, prompt: z.string().min(1), arguments: z.record(z.string(), z.string()).default({}) }),
    result: () =>
      z.strictObject({
        description: z.string().optional(),
        messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), text: z.string() })),
      }),
    scope: 'write',
    mutating: false,
  }),
  'mcp.prompts.complete': defineMethod({
    name: 'mcp.prompts.complete',
    description: 'Completion values for one prompt argument (empty when the server offers none).',
    params: () =>
      z.strictObject({
        server: serverParam,
        prompt: z.string().min(1),
        argument: z.string().min(1),
        value: z.string(),
        /** Arguments already filled in, for servers whose completions depend on them. */
        context: z.record(z.string(), z.string()).optional(),
      }),
    result: () => z.strictObject({ values: z.array(z.string()) }),
    scope: 'write',
    mutating: false,
  }),
  'mcp.resources.list': defineMethod({
    name: 'mcp.resources.list',
    description: 'Resources and resource templates of the connected servers (what `@server:uri` can name).',
    params: () => z.strictObject({ server: serverParam.optional() }).optional(),
    result: () => z.strictObject({ resources: z.array(mcpResourceInfo), templates: z.array(mcpResourceTemplateInfo) }),
    scope: 'read',
    mutating: false,
  }),
  'mcp.resources.read': defineMethod({
    name: 'mcp.resources.read',
    description: "A resource's contents as text, to attach to a message.",
    params: () => z.strictObject({ server: serverParam, uri: z.string().min(1) }),
    result: () => z.strictObject({ text: z.string(), mimeType: z.string().optional() }),
    scope: 'write',
    mutating: false,
  }),
};
