import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { heartbeatAgentStatus } from './schedule.js';
import { approvalModeName, thinkingLevelName } from './sessions.js';

/** A model as `/model` lists it. */
const modelListing = lazySchema(() =>
  z.strictObject({
    ref: z.string(),
    provider: z.string(),
    contextWindow: z.number(),
    maxOutput: z.number(),
    cost: z.strictObject({ input: z.number(), output: z.number(), cacheRead: z.number().optional(), cacheWrite: z.number().optional() }),
    ready: z.boolean(),
    source: z.enum(['builtin', 'config', 'ollama', 'plugin']),
  }),
);

/**
 * The structured `data` of `commands.run`, per built-in command: declared
 * once here, produced by the command's handler (typed with `CommandData`)
 * and read by clients with `commandDataOf` instead of shapes of their own.
 */
export const commandData = {
  model: lazySchema(() => z.strictObject({ model: z.string().nullish(), models: z.array(modelListing).optional() })),
  think: lazySchema(() => z.strictObject({ thinking: thinkingLevelName.nullish(), effective: thinkingLevelName.optional() })),
  abort: lazySchema(() => z.strictObject({ aborted: z.boolean() })),
  mode: lazySchema(() => z.strictObject({ mode: approvalModeName })),
  sh: lazySchema(() => z.strictObject({ exitCode: z.number().int().nullable(), isError: z.boolean() })),
  retry: lazySchema(() => z.strictObject({ runId: z.string() })),
  heartbeat: heartbeatAgentStatus,
};

export type CommandDataName = keyof typeof commandData;
export type CommandData<K extends CommandDataName> = z.output<(typeof commandData)[K]>;

/** A command's data as its schema declares it, or undefined when it is not that shape (an older gateway, another command). */
export function commandDataOf<K extends CommandDataName>(name: K, data: unknown): CommandData<K> | undefined {
  const parsed = commandData[name].safeParse(data);
  return parsed.success ? (parsed.data as CommandData<K>) : undefined;
}
