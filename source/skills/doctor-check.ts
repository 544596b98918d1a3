import type { AgentSkills } from './agent-skills.js';
import { describeStatus } from './catalogue.js';

/** The shape of a `claw doctor` line (gateway/doctor's DoctorCheck). */
export interface SkillsDoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** `claw doctor`'s skills line: warn when a skill is broken or the prompt block left skills out. */
export function skillsDoctorCheck(skills: AgentSkills): SkillsDoctorCheck {
  const broken = skills.records.filter((record) => record.status.kind === 'broken');
  const { omitted } = skills.prompt;
  const summary = `${skills.ready.length} ready of ${skills.records.length} found, prompt block ${skills.prompt.block.length.toLocaleString('en-US')} chars (${skills.prompt.form})`;
  if (broken.length > 0) {
    const first = broken[0]!;
    return {
      name: 'skills',
      status: 'warn',
      detail: `${broken.length} broken (${first.name}: ${describeStatus(first.status)}${broken.length > 1 ? '; …' : ''}); ${summary}`,
      fix: '`claw skills check` lists every broken skill with its file and the fix.',
    };
  }
  if (omitted.length > 0) {
    return {
      name: 'skills',
      status: 'warn',
      detail: `${omitted.length} left out of the prompt (${omitted.join(', ')}); ${summary}`,
      fix: 'Raise skills.limits.maxPromptChars, or disable skills you do not use (skills.entries.<name>.enabled false).',
    };
  }
  return { name: 'skills', status: 'ok', detail: summary };
}
