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

/** What the last start found unfinished in the journal, when the crash-loop guard failed any of it. */
export const recoveryReport = lazySchema(() =>
  z.strictObject({
    at: z.number(),
    requeued: z.number().int(),
    completed: z.number().int(),
    /** Messages the gateway died on while answering them, three times: ended as failed, their senders told. */
    failed: z.array(z.strictObject({ sessionKey: z.string(), messageId: z.string() })),
  }),
);
export type RecoveryReport = z.infer<typeof recoveryReport>;
