import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

export const healthPayload = lazySchema(() =>
  z.strictObject({
    ok: z.boolean(),
    uptimeMs: z.number(),
    checks: z.record(z.string(), z.strictObject({ ok: z.boolean(), detail: z.string().optional() })),
  }),
);
export type HealthPayload = z.infer<typeof healthPayload>;

export const presenceEntry = lazySchema(() =>
  z.strictObject({
    connId: z.string(),
    clientId: z.string(),
    clientName: z.string().optional(),
    version: z.string(),
    address: z.string(),
    connectedAt: z.number(),
    scopes: z.array(z.string()),
  }),
);
export type PresenceEntry = z.infer<typeof presenceEntry>;

/** Whether the running config matches claw.json: `invalid` keeps the last good one, `restart-needed` names keys that wait for a restart. */
export const configStatus = lazySchema(() =>
  z.strictObject({
    state: z.enum(['ok', 'invalid', 'restart-needed']),
    loadedAt: z.number(),
    restartNeeded: z.array(z.string()),
    /** For `invalid`: the validation error, naming the key. */
    error: z.string().optional(),
  }),
);
export type ConfigStatus = z.infer<typeof configStatus>;
