import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import { defineTool, toolError, toolOk } from '../tools/index.js';
import type { AgentSkills } from './agent-skills.js';
import { describeStatus } from './catalogue.js';
import { listSkillFilesSync } from './skill-files.js';

/** The `skill {name}` tool: the SKILL.md body and the folder's file list of one ready skill of the calling agent. */
export function createSkillTool(skillsOf: (agentId: string) => AgentSkills) {
  return defineTool({
    name: 'skill',
    group: 'fs',
    risk: 'low',
    description:
      'Load one skill from <available_skills> by name: returns its instructions (SKILL.md) and the files in its folder. Load the one skill that fits the task before acting on it.',
    input: lazySchema(() => z.strictObject({ name: z.string().min(1).describe('The skill name as listed in <available_skills>') })),
    async execute(args, context) {
      const skills = skillsOf(context.agentId);
      const skill = skills.ready.find((candidate) => candidate.name === args.name);
      if (!skill) {
        const known = skills.records.find((record) => record.name === args.name && record.status.kind !== 'shadowed');
        if (known) return toolError(`The skill "${args.name}" is not available: ${describeStatus(known.status)}.`);
        return toolError(`There is no skill named "${args.name}". Use a name from <available_skills>.`);
      }
      if (skill.manifest.disableModelInvocation) return toolError(`The skill "${args.name}" is only run by the user (/${args.name}); do not load it yourself.`);
      const { files, truncated } = listSkillFilesSync(skill.dir);
      const listing = files.length === 0 ? '(only SKILL.md)' : files.map((file) => `- ${file}`).join('\n') + (truncated ? '\n- … (more files not listed)' : '');
      const text = [
        `<skill name="${skill.name}" location="${skill.file}">`,
        skill.body.trimEnd(),
        '</skill>',
        '',
        `Files in ${skill.dir} (read them with \`read\` when the instructions point to them):`,
        listing,
      ].join('\n');
      return toolOk(text, { skill: skill.name, dir: skill.dir, files: files.length });
    },
  });
}
