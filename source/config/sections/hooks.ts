import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** Per-hook switches, keyed by the hook's name. */
const hookEntry = lazySchema(() =>
  z.strictObject({
    enabled: z.boolean().optional(),
    /**
     * What `claw hooks enable NAME` approved: the folder and the sha256 of its
     * files. A hook whose folder or files differ does not run until enabled
     * again; a workspace hook (the agent can write there) never runs without one.
     */
    pin: z.strictObject({ dir: z.string().min(1), sha256: z.string().min(1) }).optional(),
    /** Extra variables for the hook's process or module: the only secrets a hook ever sees. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * A command hook runs inside the exec sandbox: its folder readable, the
     * workspace and its data folder writable, no network. `false` runs it as
     * the gateway's user with everything that user can reach (the owner's
     * choice: only the config file says so, no tool can).
     */
    sandbox: z.boolean().default(true),
    /** Give the sandboxed command the host network (to call a webhook, say). */
    network: z.boolean().default(false),
  }),
);

const mappingPath = lazySchema(() =>
  z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'expected one path segment like "github" (the mapping answers POST /hooks/<path>)')
    .refine((path) => !['wake', 'agent', 'runs'].includes(path), 'wake, agent and runs are the built-in webhook routes; pick another path'),
);

/** A named webhook route that turns an outside system's JSON into a message (SPEC "Hooks and webhooks"). */
export const webhookMapping = lazySchema(() =>
  z
    .strictObject({
      path: mappingPath,
      /**
       * `token`: the webhook token in a header. `signature`: a Standard Webhooks
       * HMAC signature made with `secret` (the sender never learns the token).
       */
      auth: z.enum(['token', 'signature']).default('token'),
      /** The signing secret (`whsec_<base64>` as Standard Webhooks senders print it, or any raw string). */
      secret: z.string().min(1).optional(),
      /** The message text made from the posted JSON: `{{field.path}}` is replaced by that field's value. */
      template: z.string().min(1).optional(),
      agentId: z.string().min(1).optional(),
      /** The session the message goes to (`hook:<name>` by default); a posted `sessionKey` must start with one of `allowSessionKeyPrefixes`. */
      sessionKey: z.string().min(1).optional(),
      allowSessionKeyPrefixes: z.array(z.string().min(1)).default([]),
      /** Deliver the agent's reply to the channel named in `channel`/`to`; off keeps it in the session. */
      deliver: z.boolean().default(false),
      channel: z.string().min(1).optional(),
      to: z.string().min(1).optional(),
      /** Requests per minute accepted on this route; more get 429 with Retry-After. */
      rateLimitPerMinute: z.number().int().positive().default(60),
      /** `GET /hooks/runs/<runId>` includes the agent's reply; off, it tells only how the run ended (the reply stays in the session). */
      returnReply: z.boolean().default(false),
    })
    .refine((mapping) => mapping.auth !== 'signature' || mapping.secret !== undefined, {
      message: 'auth "signature" needs a secret (the signing secret the sender was given)',
      path: ['secret'],
    }),
);

export const hooksSection = lazySchema(() =>
  z.strictObject({
    /** Off: no hook runs, the bundled ones included. */
    enabled: z.boolean().default(true),
    /** Longest a handler may take, unless its HOOK.md sets `timeoutMs`; a hook that takes longer is abandoned and the action goes on. */
    timeoutMs: z.number().int().positive().default(10_000),
    entries: z.record(z.string(), hookEntry).default({}),
    webhooks: z
      .strictObject({
        enabled: z.boolean().default(true),
        maxBodyBytes: z
          .number()
          .int()
          .positive()
          .max(16 * 1024 * 1024)
          .default(256 * 1024),
        /** For the built-in `/hooks/wake` and `/hooks/agent` routes. */
        rateLimitPerMinute: z.number().int().positive().default(60),
        /** Whether `GET /hooks/runs/<runId>` of a `/hooks/wake` or `/hooks/agent` run includes the reply (whoever holds the webhook token reads it). */
        returnReply: z.boolean().default(false),
        /** Signed requests older (or newer) than this are refused as replays. */
        signatureToleranceSeconds: z.number().int().positive().default(300),
        /** Where a `/hooks/agent` caller may have the reply delivered (`{channel, to}`); empty: only the owners' own chats. */
        allowedDeliveryTargets: z.array(z.strictObject({ channel: z.string().min(1), to: z.string().min(1) })).default([]),
      })
      .prefault({}),
    mappings: z.record(z.string(), webhookMapping).default({}),
  }),
);

export type HooksConfig = z.output<typeof hooksSection>;
export type WebhookMapping = z.output<typeof webhookMapping>;
