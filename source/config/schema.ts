import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import { gatewaySection } from './sections/gateway.js';
import { agentsSection, bindingEntry, checkBindingAgents } from './sections/agents.js';
import { modelsSection } from './sections/models.js';
import { sessionSection } from './sections/sessions.js';
import { queueSection } from './sections/queue.js';
import { toolsSection } from './sections/tools.js';
import { memorySection } from './sections/memory.js';
import { mcpServersSection } from './sections/mcp.js';
import { compactionSection } from './sections/compaction.js';
import { contextSection } from './sections/context.js';
import { skillsSection } from './sections/skills.js';
import { hooksSection } from './sections/hooks.js';
import { acpSection } from './sections/acp.js';
import { channelsSection } from './sections/channels.js';
import { budgetsSection } from './sections/budgets.js';
import { pluginsSection } from './sections/plugins.js';

/**
 * The whole of claw.json. Each section lives in its own file next to its
 * defaults; this schema only composes them. Unknown keys are errors so a typo
 * never silently does nothing. The schema and its sections are built on
 * first use: the TUI and most commands import config/ and never validate a
 * file (nor does a gateway whose claw.json validated before), and building
 * the ~900 nodes cost them ~20 ms at every start.
 */
export const configSchema = lazySchema(() =>
  z
    .strictObject({
      $schema: z.string().optional(),
      gateway: gatewaySection.prefault({}),
      agents: agentsSection.prefault({}),
      bindings: z.array(bindingEntry).default([]),
      models: modelsSection.prefault({}),
      session: sessionSection.prefault({}),
      queue: queueSection.prefault({}),
      tools: toolsSection.prefault({}),
      memory: memorySection.prefault({}),
      mcpServers: mcpServersSection.default({}),
      compaction: compactionSection.prefault({}),
      context: contextSection.prefault({}),
      skills: skillsSection.prefault({}),
      hooks: hooksSection.prefault({}),
      acp: acpSection.prefault({}),
      channels: channelsSection.prefault({}),
      budgets: budgetsSection.prefault({}),
      plugins: pluginsSection.prefault({}),
    })
    .superRefine(checkBindingAgents),
);

export type ClawConfig = z.output<typeof configSchema>;
export type ClawConfigInput = z.input<typeof configSchema>;
