import { randomUUID } from 'node:crypto';
import { createAgentSlashCommand, type AgentRuntime } from '../agent/index.js';
import { createPairingSlashCommand, type ChannelHost } from '../channels/index.js';
import type { ClawConfig, Clock } from '../config/index.js';
import { mcpPromptSlashCommands, type McpService } from '../mcp/index.js';
import type { Providers, SpendGate } from '../providers/index.js';
import { configuredAgentIds } from '../memory/index.js';
import type { ConfigStore } from './config-store.js';
import { createCostSlashCommand } from './cost-command.js';
import type { LaneQueue } from '../queue/index.js';
import { defaultAgentId } from '../routing/index.js';
import type { ScheduleService } from '../schedule/index.js';
import { createSkillsSlashCommand, skillSlashCommand, type SkillsService } from '../skills/index.js';
import type { AgentsService } from './agents-service.js';
import { sessionCommandHost } from './command-host.js';
import { CommandService } from './command-service.js';
import type { EventBus } from './event-bus.js';
import type { InboundService } from './inbound-service.js';
import type { Lifecycle } from './lifecycle.js';
import type { SessionsService } from './sessions-service.js';

export interface CommandSources {
  config: ClawConfig;
  clock: Clock;
  events: EventBus;
  sessions: SessionsService;
  lanes: LaneQueue;
  messages: InboundService;
  lifecycle: Lifecycle;
  schedule: ScheduleService;
  agent: AgentRuntime;
  providers: Providers;
  skills: SkillsService;
  agents: AgentsService;
  mcp: McpService;
  channels: ChannelHost;
  spend: SpendGate;
  store: ConfigStore;
  configFile: string;
}

/** The one slash-command registry: the built-ins, the subsystems' own, skills and MCP prompts as commands. */
export function buildCommands(s: CommandSources): CommandService {
  const { config, messages, skills, mcp } = s;
  const registered = new CommandService(sessionCommandHost(s.sessions, s.lanes, messages, s.lifecycle, s.schedule), s.agent, s.providers, s.events);
  registered.add(createSkillsSlashCommand(skills));
  registered.add(createAgentSlashCommand(() => s.agents.list()));
  // A user-invocable skill is a slash command that starts a turn following that skill.
  registered.addSource((reserved) =>
    skills.commands(defaultAgentId(config), reserved).commands.map((command) =>
      skillSlashCommand(command, async (sessionKey, message) => {
        const accepted = await messages.accept({ channel: 'tui', peer: { kind: 'direct', id: 'skill' }, sessionKey, messageId: randomUUID(), text: message });
        return { runId: accepted.runId };
      }),
    ),
  );
  // Server prompts are slash commands too; asked for on every lookup, so a prompts/list_changed shows at once.
  registered.addSource((reserved) =>
    mcpPromptSlashCommands(mcp.manager, reserved, (sessionKey, text) =>
      messages.accept({ channel: 'tui', peer: { kind: 'direct', id: 'mcp-prompt' }, sessionKey, messageId: randomUUID(), text }),
    ),
  );
  registered.add(createPairingSlashCommand(s.channels, s.clock));
  registered.add(
    createCostSlashCommand({ spend: s.spend, configFile: s.configFile, agents: () => configuredAgentIds(s.store.current), reload: () => s.store.reload() }),
  );
  return registered;
}
