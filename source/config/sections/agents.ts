import { z } from 'zod';
import { heartbeatDefaults, heartbeatOverride } from './heartbeat.js';
import { subagentsDefaults } from './subagents.js';

import { thinkingLevelName as thinkingLevel } from '../../protocol/index.js';

const agentTuning = {
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
};

export const agentEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'an agent id: lowercase letters, digits, - and _'),
  name: z.string().optional(),
  /** Workspace folder; default `<state>/workspace-<id>` (`<state>/workspace` for `main`). */
  workspace: z.string().optional(),
  model: agentTuning.model,
  fallbacks: z.array(z.string().min(3)).optional(),
  thinking: thinkingLevel.optional(),
  /** Replaces agents.defaults.skills for this agent. */
  skills: agentTuning.skills,
  heartbeat: heartbeatOverride.optional(),
});

export const agentsSection = z.strictObject({
  defaults: z.strictObject(agentTuning).prefault({}),
  list: z.array(agentEntry).default([]),
});

export const bindingEntry = z.strictObject({
  agentId: z.string().min(1),
  match: z.strictObject({
    channel: z.string().min(1).optional(),
    accountId: z.string().min(1).optional(),
    peer: z.strictObject({ kind: z.enum(['direct', 'group']), id: z.string().min(1) }).optional(),
  }),
});
