import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

const snowflake = lazySchema(() =>
  z.union([z.number().int(), z.string().regex(/^\d{15,21}$/, 'a Discord id (15 to 21 digits; Developer Mode → Copy ID)')]).transform(String),
);

const guild = lazySchema(() =>
  z.strictObject({
    /** The text channels (and their threads) the bot answers in: ids, or "*" for every channel it can read. */
    channels: z.union([z.literal('*'), z.array(snowflake)]).default([]),
    /** Answer only when the bot is @mentioned or replied to. */
    requireMention: z.boolean().default(true),
    /** Who may talk to the bot in this guild; empty = every member. */
    allowFrom: z.array(snowflake).default([]),
  }),
);

/**
 * One Discord bot. The token is never in claw.json: it comes from
 * `tokenFile`, the environment variable `tokenEnv`, or
 * `credentials/discord-<account>.token` written by `claw channels login discord`.
 */
export const discordAccount = lazySchema(() =>
  z
    .strictObject({
      enabled: z.boolean().default(true),
      tokenFile: z.string().min(1).optional(),
      tokenEnv: z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name like "DISCORD_BOT_TOKEN"')
        .optional(),
      dmPolicy: z.enum(['pairing', 'allowlist', 'open', 'disabled']).default('pairing'),
      allowFrom: z.array(snowflake).default([]),
      /** Who answers approvals (a Discord user id); default: a sender paired with --owner, else allowFrom[0]. */
      owner: snowflake.optional(),
      guilds: z.record(z.string().regex(/^\d{15,21}$/, 'a guild id'), guild).default({}),
      streaming: z.enum(['off', 'edit']).default('edit'),
      /** The REST base of a self-hosted or test Discord API; the gateway URL comes from its GET /gateway/bot. */
      apiRoot: z
        .string()
        .url()
        .refine((url) => !url.endsWith('/'), 'remove the trailing "/" from apiRoot')
        .default('https://discord.com/api'),
      /** Messages fetched per channel after downtime (newest since the last one seen). */
      catchUpLimit: z.number().int().min(0).max(100).default(50),
      /** A peer sending more than this many messages a minute is not answered until it slows down (bot loops). */
      maxMessagesPerMinute: z.number().int().min(1).default(20),
    })
    .refine((account) => !(account.tokenFile && account.tokenEnv), { message: 'set tokenFile or tokenEnv, not both', path: ['tokenEnv'] }),
);

export type DiscordAccountConfig = z.output<typeof discordAccount>;
export type DiscordGuildConfig = z.output<typeof guild>;

export const DISCORD_CHANNEL = 'discord';
