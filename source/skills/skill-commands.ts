import type { ReadySkill } from './catalogue.js';

/** A user-invocable skill as a slash command: `/name args` runs a turn with `buildMessage(args)`. */
export interface SkillCommand {
  name: string;
  description: string;
  /** Usage of the arguments from the skill's `argument-hint`; '' when it declares none. */
  argumentHint: string;
  buildMessage(args: string): string;
}

export interface SkillCommandList {
  commands: SkillCommand[];
  /** User-invocable skills that got no command, with the reason. */
  skipped: { name: string; reason: string }[];
}

/** The turn message for `/name args`: the skill's instructions with the arguments, so it works even when the model may not load the skill itself. */
export function skillInvocationMessage(skill: ReadySkill, args: string): string {
  const request = args.trim();
  const body = skill.body.includes('$ARGUMENTS') ? skill.body.replaceAll('$ARGUMENTS', request) : skill.body;
  return [
    `The user invoked the skill "${skill.name}" with /${skill.name}. Follow its instructions below for this request. Paths in it are relative to ${skill.dir}.`,
    '',
    `<skill name="${skill.name}" location="${skill.file}">`,
    body.trimEnd(),
    '</skill>',
    '',
    request ? `Arguments: ${request}` : 'No arguments were given; if the skill needs input, ask the user for it.',
  ].join('\n');
}

/** Commands for the ready, user-invocable skills; a name taken by another command (`reserved`) is skipped with a reason. */
export function skillCommands(skills: readonly ReadySkill[], reserved: ReadonlySet<string>): SkillCommandList {
  const commands: SkillCommand[] = [];
  const skipped: SkillCommandList['skipped'] = [];
  for (const skill of skills) {
    if (!skill.manifest.userInvocable) continue;
    if (reserved.has(skill.name)) {
      skipped.push({ name: skill.name, reason: `/${skill.name} is already a built-in command; the model can still use the skill` });
      continue;
    }
    commands.push({
      name: skill.name,
      description: skill.manifest.description,
      argumentHint: skill.manifest.argumentHint ?? '',
      buildMessage: (args) => skillInvocationMessage(skill, args),
    });
  }
  return { commands, skipped };
}
