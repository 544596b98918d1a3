import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

const agentId = lazySchema(() => z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'an agent id: lowercase letters, digits, - and _ (at most 64)'));

export const agentInfo = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    name: z.string().optional(),
    /** Answers what no binding claims. */
    default: z.boolean(),
    /** The resolved workspace folder. */
    workspace: z.string(),
    model: z.string().optional(),
    /** How many bindings route to this agent. */
    bindings: z.number().int().min(0),
    sessions: z.number().int().min(0),
  }),
);
export type AgentInfo = z.infer<typeof agentInfo>;

export const agentMethods = {
  'agents.list': defineMethod({
    name: 'agents.list',
    description: 'The configured agents: id, name, workspace, model, bindings and session count; which one is the default.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ agents: z.array(agentInfo) }),
    scope: 'read',
    mutating: false,
  }),
  'agents.add': defineMethod({
    name: 'agents.add',
    description: 'Add an agent to claw.json (its workspace starts from the template) and apply it at once, without a restart.',
    params: () =>
      z.strictObject({
        id: agentId,
        name: z.string().min(1).max(200).optional(),
        workspace: z.string().min(1).optional(),
        model: z.string().min(3).optional(),
        default: z.boolean().optional(),
        idempotencyKey: z.string().min(1).max(128).optional(),
      }),
    result: () => z.strictObject({ agent: agentInfo }),
    scope: 'admin',
    mutating: true,
  }),
  'agents.remove': defineMethod({
    name: 'agents.remove',
    description: 'Remove an agent and its bindings from claw.json; its workspace and transcripts stay on disk.',
    params: () => z.strictObject({ id: agentId, idempotencyKey: z.string().min(1).max(128).optional() }),
    result: () => z.strictObject({ removed: z.string(), bindingsRemoved: z.number().int().min(0), workspace: z.string() }),
    scope: 'admin',
    mutating: true,
  }),
};
