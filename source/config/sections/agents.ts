import { z } from 'zod';
import { heartbeatDefaults, heartbeatOverride } from './heartbeat.js';
import { subagentsDefaults } from './subagents.js';
import { policyLayer } from './tools.js';

import { thinkingLevelName as thinkingLevel, lazySchema } from '../../protocol/index.js';

const agentTuning = () => ({
  /** Model ref `provider/model` used when the session sets none. */
  model: z.string().min(3).optional(),
  /** Models tried in order for the current turn when the primary fails. */
  fallbacks: z.array(z.string().min(3)).default([]),
  thinking: thinkingLevel.default('off'),
  /** Model calls per turn before the loop stops with a clear error. */
  maxIterations: z.number().int().min(1).max(500).default(24),
  turnTimeoutSeconds: z.number().int().min(1).default(600),
  /** Skill names this agent may use; absent means every ready skill. */
  skills: z.array(z.string().min(1)).optional(),
  heartbeat: heartbeatDefaults.prefault({}),
  subagents: subagentsDefaults.prefault({}),
  /** The context engine a turn uses (agent/README.md); `default` is accounting, pruning, compaction and the memory flush. */
  contextEngine: z.string().min(1).default('default'),
});

export const agentEntry = lazySchema(() => {
  const tuning = agentTuning();
  return z.strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'an agent id: lowercase letters, digits, - and _'),
    name: z.string().optional(),
    /** Workspace folder; default `<state>/workspace-<id>` (`<state>/workspace` for `main`). */
    workspace: z.string().optional(),
    model: tuning.model,
    fallbacks: z.array(z.string().min(3)).optional(),
    thinking: thinkingLevel.optional(),
    /** Replaces agents.defaults.contextEngine for this agent. */
    contextEngine: z.string().min(1).optional(),
    /** Replaces agents.defaults.skills for this agent. */
    skills: tuning.skills,
    heartbeat: heartbeatOverride.optional(),
    /** The agent that answers what no binding claims; without one, `main` if listed, else the first. */
    default: z.boolean().optional(),
    /** This agent's level of the tool policy (replaces tools.agents.<id>). */
    tools: policyLayer.optional(),
  });
});

export const agentsSection = lazySchema(() =>
  z.strictObject({
    defaults: z.strictObject(agentTuning()).prefault({}),
    list: z
      .array(agentEntry)
      .default([])
      .superRefine((list, context) => {
        const seen = new Set<string>();
        list.forEach((agent, index) => {
          if (seen.has(agent.id)) context.addIssue({ code: 'custom', path: [index, 'id'], message: `agent "${agent.id}" is listed twice; ids must be unique` });
          seen.add(agent.id);
        });
        if (list.filter((agent) => agent.default).length > 1)
          context.addIssue({ code: 'custom', message: 'more than one agent has "default": true; mark exactly one' });
      }),
  }),
);

export const bindingEntry = lazySchema(() =>
  z.strictObject({
    agentId: z.string().min(1),
    match: z.strictObject({
      channel: z.string().min(1).optional(),
      accountId: z.string().min(1).optional(),
      peer: z.strictObject({ kind: z.enum(['direct', 'group']), id: z.string().min(1) }).optional(),
    }),
  }),
);

/** Every binding must name a configured agent: a message routed to an unknown one could not be answered. */
export function checkBindingAgents(
  config: { agents: { list: ReadonlyArray<{ id: string }> }; bindings: ReadonlyArray<{ agentId: string }> },
  context: z.RefinementCtx,
): void {
  const known = config.agents.list.length > 0 ? config.agents.list.map((agent) => agent.id) : ['main'];
  config.bindings.forEach((binding, index) => {
    if (!known.includes(binding.agentId))
      context.addIssue({
        code: 'custom',
        path: ['bindings', index, 'agentId'],
        message: `no agent "${binding.agentId}" in agents.list (known: ${known.join(', ')}); add it with \`claw agents add ${binding.agentId}\` or fix the binding`,
      });
  });
}
