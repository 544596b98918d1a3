import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

/** A key or model failover skips for now: what, why (the provider's words) and until when. */
export const cooldownEntry = lazySchema(() =>
  z.strictObject({
    scope: z.enum(['key', 'model']),
    provider: z.string(),
    /** A key's profile id (`env:OPENAI_API_KEY`, `… for <ref>` when only that model is limited), or a model ref. */
    label: z.string(),
    kind: z.string(),
    reason: z.string(),
    /** Epoch ms. */
    until: z.number(),
  }),
);
export type CooldownEntry = z.infer<typeof cooldownEntry>;

export const modelMethods = {
  'models.cooldowns': defineMethod({
    name: 'models.cooldowns',
    description: 'The keys and models failover is skipping now, why, and until when.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ cooldowns: z.array(cooldownEntry) }),
    scope: 'read',
    mutating: false,
  }),
  'models.resetCooldown': defineMethod({
    name: 'models.resetCooldown',
    description: 'Lifts the cooldowns of a provider, a model ref or a key profile id (all of them without one), so the next turn tries them again.',
    params: () => z.strictObject({ which: z.string().min(1).optional(), idempotencyKey: z.string().optional() }).optional(),
    result: () => z.strictObject({ lifted: z.array(cooldownEntry) }),
    scope: 'admin',
    mutating: true,
  }),
};
