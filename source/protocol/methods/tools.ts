import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const toolInfo = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    group: z.string(),
    description: z.string(),
    risk: z.enum(['low', 'medium', 'high']),
    parameters: z.record(z.string(), z.unknown()),
  }),
);
export type ToolInfo = z.infer<typeof toolInfo>;

export const toolMethods = {
  'tools.catalog': defineMethod({
    name: 'tools.catalog',
    description: 'Every tool the gateway knows, with its group, risk and argument schema.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ tools: z.array(toolInfo) }),
    scope: 'read',
    mutating: false,
  }),
  'tools.effective': defineMethod({
    name: 'tools.effective',
    description: 'Which tools a session sees after the policy pipeline, and why each is in or out.',
    params: () => z.strictObject({ sessionKey: z.string().min(1), subagentRole: z.string().optional() }),
    result: () =>
      z.strictObject({
        agentId: z.string(),
        sessionType: z.string(),
        tools: z.array(z.strictObject({ name: z.string(), group: z.string(), allowed: z.boolean(), reason: z.string() })),
      }),
    scope: 'read',
    mutating: false,
  }),
};
