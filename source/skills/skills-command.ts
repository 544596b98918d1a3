import type { SlashCommand } from '../agent/index.js';
import { parseSessionKey } from '../routing/index.js';
import { DEFAULT_AGENT_ID } from '../config/index.js';
import type { SkillCommand } from './skill-commands.js';
import type { SkillsService } from './skills-service.js';
import { formatSkillsTable, skillRows } from './skills-list.js';

function agentOf(sessionKey: string): string {
  return parseSessionKey(sessionKey)?.agentId ?? DEFAULT_AGENT_ID;
}

/** `/skills`: every skill of the session's agent with its status (ready, needs, broken, shadowed, disabled). */
export function createSkillsSlashCommand(service: SkillsService): SlashCommand {
  return {
    name: 'skills',
    aliases: [],
    args: '',
    description: 'The skills of this agent and their status: ready, needs X, broken: reason, shadowed by P.',
    async run({ sessionKey }) {
      const skills = service.agent(agentOf(sessionKey));
      return {
        reply: formatSkillsTable(skills),
        data: {
          agentId: skills.agentId,
          skills: skillRows(skills),
          prompt: { form: skills.prompt.form, listed: skills.prompt.listed, omitted: skills.prompt.omitted },
        },
      };
    },
  };
}

/**
 * A skill command as a registry entry: `/name args` starts a turn in the
 * session with the skill's message. `startTurn` is the daemon's inbound port.
 */
export function skillSlashCommand(command: SkillCommand, startTurn: (sessionKey: string, message: string) => Promise<{ runId: string }>): SlashCommand {
  return {
    name: command.name,
    aliases: [],
    args: command.argumentHint,
    description: command.description,
    async run({ sessionKey, args }) {
      const { runId } = await startTurn(sessionKey, command.buildMessage(args));
      return { reply: `Running the ${command.name} skill${args ? ` with: ${args}` : ''}.`, data: { runId, skill: command.name } };
    },
  };
}
