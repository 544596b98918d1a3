import { z } from 'zod';
import { defineMethod } from '../define.js';
import { subagentNode } from '../events/runtime.js';

export const subagentMethods = {
  'subagents.list': defineMethod({
    name: 'subagents.list',
    description: 'The tree of child runs (all parents, or the children of one session and theirs).',
    params: () => z.strictObject({ parentKey: z.string().min(1).optional() }).optional(),
    result: () => z.strictObject({ nodes: z.array(subagentNode) }),
    scope: 'read',
    mutating: false,
  }),
  'subagents.cancel': defineMethod({
    name: 'subagents.cancel',
    description: 'Cancel a running or queued child run (by run id or child session key).',
    params: () => z.strictObject({ id: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ cancelled: z.boolean(), node: subagentNode }),
    scope: 'write',
    mutating: true,
  }),
  'subagents.steer': defineMethod({
    name: 'subagents.steer',
    description: 'Send a child run a message it reads at its next tool boundary.',
    params: () => z.strictObject({ id: z.string().min(1), message: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ node: subagentNode, status: z.enum(['steered', 'restarted']) }),
    scope: 'write',
    mutating: true,
  }),
};
