import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

export const DEFAULT_SKILLS_PROMPT_CHARS = 30_000;

/** Per-skill settings, keyed by the skill's name. */
export const skillEntry = lazySchema(() =>
  z.strictObject({
    /** false: the skill is never offered, whatever its requirements. */
    enabled: z.boolean().default(true),
    /** Given to this skill's agent's exec calls; the values are secrets: never logged, prompted or printed. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string()).default({}),
  }),
);

export const skillsSection = lazySchema(() =>
  z.strictObject({
    load: z
      .strictObject({
        /** Folders searched after the bundled skills, lowest precedence. */
        extraDirs: z.array(z.string().min(1)).default([]),
        /** Refresh the skills snapshot when a skill folder changes. */
        watch: z.boolean().default(true),
        /** Quiet time after the last change before the snapshot is rebuilt. */
        watchDebounceMs: z.number().int().min(0).max(10_000).default(250),
      })
      .prefault({}),
    limits: z
      .strictObject({
        /** Size of the <available_skills> block; past it the compact form (name + location) is used. */
        maxPromptChars: z.number().int().min(200).default(DEFAULT_SKILLS_PROMPT_CHARS),
      })
      .prefault({}),
    entries: z.record(z.string(), skillEntry).default({}),
  }),
);

export const REDACTED = '[redacted]';

/** Every `skills.entries.*.env` value, for the redactor that scrubs known secrets from logs and tool results. */
export function skillEnvSecrets(skills: z.output<typeof skillsSection>): string[] {
  return Object.values(skills.entries)
    .flatMap((entry) => Object.values(entry.env))
    .filter((value) => value.length > 0);
}

/** A copy of a config value (whole or any part) with `skills.entries.*.env` values replaced, for printing. */
export function redactSkillSecrets(value: unknown, key: string | undefined): unknown {
  const path = key ? key.split('.') : [];
  const redact = (node: unknown, at: readonly string[]): unknown => {
    if (node === null || typeof node !== 'object') {
      return at.length === 5 && at[0] === 'skills' && at[1] === 'entries' && at[3] === 'env' ? REDACTED : node;
    }
    if (Array.isArray(node)) return node.map((item, index) => redact(item, [...at, String(index)]));
    return Object.fromEntries(Object.entries(node).map(([name, child]) => [name, redact(child, [...at, name])]));
  };
  return redact(value, path);
}
