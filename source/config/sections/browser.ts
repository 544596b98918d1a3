import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

const sitePattern = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/** `tools.browser`: the headless Chromium behind the `browser` tool (its network goes through `tools.web.allowPrivate`). */
export const browserToolSection = lazySchema(() =>
  z.strictObject({
    /** Offer the `browser` tool at all (it still starts only when first used). */
    enabled: z.boolean().default(true),
    /** Chromium or Chrome to drive; default: the first of chromium, chromium-browser, google-chrome on PATH. */
    executablePath: z.string().min(1).optional(),
    /** Longest snapshot text returned; a longer page is cut with a line saying how to see more. */
    snapshotMaxChars: z.number().int().min(1000).max(200_000).default(12_000),
    /** Every action's deadline (navigation included). */
    actionTimeoutMs: z.number().int().min(500).max(300_000).default(15_000),
    /** Tabs the agent opened and has not used for this long are closed; the browser stops when none is left. */
    idleMinutes: z.number().min(1).default(30),
    /** Let the agent run JavaScript in the page (`evaluate`); each call is still approved by the owner. */
    evaluate: z.boolean().default(false),
    /** Per site (`example.com`, `*.example.com`): `ask` approves the first visit, `deny` refuses every request to it. Others are allowed. */
    sites: z.record(z.string().regex(sitePattern, 'expected a host name like example.com or *.example.com'), z.enum(['allow', 'ask', 'deny'])).default({}),
    /** Largest file a `download` keeps. */
    maxDownloadBytes: z
      .number()
      .int()
      .positive()
      .default(100 * 1024 * 1024),
  }),
);
