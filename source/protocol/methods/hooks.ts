import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const hookInfo = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    description: z.string(),
    source: z.enum(['workspace', 'user', 'bundled']),
    dir: z.string(),
    events: z.array(z.string()),
    handler: z.enum(['module', 'command']),
    enabled: z.boolean(),
    /** Why an enabled hook does not run here (missing bin, env, wrong OS); empty when it runs. */
    unmet: z.array(z.string()),
    /** Why a hook that is switched on is held back: its folder or files are not the ones `claw hooks enable` pinned. */
    blocked: z.string().optional(),
    /** Why a command hook runs outside the exec sandbox (its entry says \`sandbox: false\`, or no sandbox can start here). */
    unsandboxed: z.string().optional(),
    runs: z.number().int(),
    failures: z.number().int(),
    lastError: z.strictObject({ at: z.number(), event: z.string(), message: z.string() }).optional(),
  }),
);
export type HookInfo = z.infer<typeof hookInfo>;

export const hookProblem = lazySchema(() => z.strictObject({ dir: z.string(), source: z.enum(['workspace', 'user', 'bundled']), error: z.string() }));
export const hookShadow = lazySchema(() => z.strictObject({ name: z.string(), dir: z.string(), by: z.string() }));

export const hookMethods = {
  'hooks.list': defineMethod({
    name: 'hooks.list',
    description: 'Installed hooks with their state, run counts and last error, plus folders whose HOOK.md is invalid.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ hooks: z.array(hookInfo), invalid: z.array(hookProblem), shadowed: z.array(hookShadow) }),
    scope: 'read',
    mutating: false,
  }),
};
