import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

const chatId = lazySchema(() => z.string().regex(/^-?\d+$/, 'a Telegram chat id like "-1001234567890"'));
const userId = lazySchema(() => z.union([z.number().int(), z.string().regex(/^\d+$/, 'a numeric Telegram user id like "123456789"')]).transform(String));

const telegramGroup = lazySchema(() =>
  z.strictObject({
    /** Answer only when the bot is @mentioned or replied to. */
    requireMention: z.boolean().default(true),
    /** Who may talk to the bot in this group; empty = every member. */
    allowFrom: z.array(userId).default([]),
    /** Messages an admin sends anonymously (as the group, through @GroupAnonymousBot) count as the group's admins'. */
    allowAnonymousAdmins: z.boolean().default(false),
  }),
);

/**
 * One bot. The token is never in claw.json: it comes from `tokenFile`, the
 * environment variable `tokenEnv`, or `credentials/telegram-<account>.token`
 * written by `claw channels login telegram`.
 */
export const telegramAccount = lazySchema(() =>
  z
    .strictObject({
      enabled: z.boolean().default(true),
      tokenFile: z.string().min(1).optional(),
      tokenEnv: z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name like "TELEGRAM_BOT_TOKEN"')
        .optional(),
      dmPolicy: z.enum(['pairing', 'allowlist', 'open', 'disabled']).default('pairing'),
      allowFrom: z.array(userId).default([]),
      /** Who answers approvals from the phone (a numeric user id); default: allowFrom[0]. Pairing never changes it. */
      owner: userId.optional(),
      groupPolicy: z.enum(['allowlist', 'open', 'disabled']).default('allowlist'),
      groups: z.record(chatId, telegramGroup).default({}),
      streaming: z.enum(['off', 'edit']).default('edit'),
      /** An edit of a message already answered: `reply` takes it as a new turn marked edited; `ignore` says so in the chat. */
      edits: z.enum(['reply', 'ignore']).default('reply'),
      /** A self-hosted Bot API server, e.g. "http://127.0.0.1:8081" (no trailing slash). */
      apiRoot: z
        .string()
        .url()
        .refine((url) => !url.endsWith('/'), 'remove the trailing "/" from apiRoot')
        .default('https://api.telegram.org'),
      /** Seconds a getUpdates long poll waits for traffic. */
      pollTimeoutSeconds: z.number().int().min(0).max(50).default(30),
    })
    .refine((account) => !(account.tokenFile && account.tokenEnv), {
      message: 'set tokenFile or tokenEnv, not both',
      path: ['tokenEnv'],
    }),
);

const accountId = lazySchema(() => z.string().regex(/^[a-z0-9][a-z0-9_-]*$/i, 'an account id like "default"'));

/**
 * Telegram's accounts are checked here; any other channel's
 * (`channels.<name>.accounts.<id>`) by its adapter when the gateway starts
 * the account (channels/README.md), so a new channel needs no edit here.
 */
export const channelsSection = lazySchema(() =>
  z
    .strictObject({
      telegram: z.strictObject({ accounts: z.record(accountId, telegramAccount).default({}) }).prefault({}),
    })
    .catchall(z.strictObject({ accounts: z.record(accountId, z.record(z.string(), z.unknown())).default({}) })),
);

export type ChannelsConfig = z.output<typeof channelsSection>;
export type TelegramAccountConfig = z.output<typeof telegramAccount>;
