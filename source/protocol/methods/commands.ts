import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

/** A command's argument, so clients build completion and pickers from data. */
export const commandArgument = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    required: z.boolean(),
    /** The values the gateway accepts now (models, thinking levels, …); absent for free text. */
    values: z.array(z.strictObject({ value: z.string(), description: z.string().optional() })).optional(),
  }),
);
export type CommandArgument = z.infer<typeof commandArgument>;

export const commandInfo = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    aliases: z.array(z.string()),
    /** The synopsis of the arguments, e.g. `[provider/model | default]`. */
    args: z.string(),
    description: z.string(),
    arguments: z.array(commandArgument).optional(),
  }),
);
export type CommandInfo = z.infer<typeof commandInfo>;

export const commandMethods = {
  'commands.run': defineMethod({
    name: 'commands.run',
    description: 'Run a slash command (/status, /new, /model …) for a session; TUI, CLI and channels share them.',
    params: () =>
      z.strictObject({ sessionKey: z.string().min(1).max(512), text: z.string().min(1).max(10_000), idempotencyKey: z.string().max(128).optional() }),
    result: () =>
      z.strictObject({
        /** Text to show the user (markdown-light). */
        reply: z.string(),
        /** Structured result for clients that render it (e.g. /context json). */
        data: z.unknown().optional(),
      }),
    scope: 'write',
    mutating: true,
  }),
  'commands.list': defineMethod({
    name: 'commands.list',
    description: 'The slash commands the gateway serves.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ commands: z.array(commandInfo) }),
    scope: 'read',
    mutating: false,
  }),
};
