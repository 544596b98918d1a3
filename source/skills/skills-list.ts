import type { AgentSkills } from './agent-skills.js';
import { describeStatus } from './catalogue.js';

export interface SkillRow {
  name: string;
  source: string;
  status: string;
  location: string;
  warnings: string[];
}

export function skillRows(skills: AgentSkills): SkillRow[] {
  return skills.records.map((record) => ({
    name: record.name,
    source: record.source,
    status: describeStatus(record.status),
    location: record.file,
    warnings: record.warnings,
  }));
}

/** The table `claw skills list` and `/skills` print: name, source, status, then warnings and what the prompt left out. */
export function formatSkillsTable(skills: AgentSkills): string {
  const rows = skillRows(skills);
  if (rows.length === 0) return 'No skills found. Put a folder with a SKILL.md in <workspace>/skills or ~/.claw/skills, or run `claw skills install PATH`.';
  const widths = [Math.max(4, ...rows.map((row) => row.name.length)), Math.max(6, ...rows.map((row) => row.source.length))];
  const lines = [`${'NAME'.padEnd(widths[0]!)}  ${'SOURCE'.padEnd(widths[1]!)}  STATUS`];
  for (const row of rows) {
    lines.push(`${row.name.padEnd(widths[0]!)}  ${row.source.padEnd(widths[1]!)}  ${row.status}`);
    for (const warning of row.warnings) lines.push(`${' '.repeat(widths[0]! + widths[1]! + 4)}warning: ${warning}`);
  }
  const { prompt } = skills;
  lines.push('', `prompt: ${prompt.listed.length} skills in the ${prompt.form} form (${prompt.block.length.toLocaleString('en-US')} chars)`);
  if (prompt.omitted.length > 0) lines.push(`left out of the prompt (over skills.limits.maxPromptChars): ${prompt.omitted.join(', ')}`);
  return lines.join('\n');
}
