import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { browserToolSection } from './browser.js';
import { webToolSection } from './web.js';

/** Where secrets usually live, relative to the home folder (or absolute); hidden from every exec. */
export const DEFAULT_SECRET_PATHS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gh',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.gnupg',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
];

/** Home-relative files a command may read by default: git's own settings, which hold no secrets. */
export const DEFAULT_READABLE = ['.gitconfig', '.config/git'];

export const toolProfiles = ['minimal', 'messaging', 'coding', 'full'] as const;

/** One level of the tool policy pipeline below the global one. */
export const policyLayer = lazySchema(() =>
  z.strictObject({
    profile: z.enum(toolProfiles).optional(),
    allow: z.array(z.string()).default([]),
    deny: z.array(z.string()).default([]),
  }),
);

export const toolsSection = lazySchema(() =>
  z.strictObject({
    profile: z.enum(toolProfiles).default('coding'),
    /** Tool names or `group:<name>` added on top of the profile. */
    allow: z.array(z.string()).default([]),
    /** Tool names or `group:<name>` removed; deny always wins. */
    deny: z.array(z.string()).default([]),
    /** Extra folders the fs tools may touch besides the workspace. */
    fsRoots: z.array(z.string()).default([]),
    /** Per-agent, per-session-type (`main`, `direct`, `group`, `cron`, `subagent`, …) and per-subagent-role levels. */
    agents: z.record(z.string(), policyLayer).default({}),
    sessionTypes: z.record(z.string(), policyLayer).default({}),
    /**
     * The tools a turn keeps by who asked (`owner`, `contact`, `group-member`,
     * `webhook`, `cron`, `heartbeat`, `subagent`, `agent`): a layer here
     * replaces that kind's default. By default a contact, a group member and a
     * webhook get no tools that touch files, run commands, read memory, fetch
     * the web, message anyone, use other sessions or MCP servers.
     */
    profiles: z.record(z.string(), policyLayer).default({}),
    subagentRoles: z.record(z.string(), policyLayer).default({}),
    exec: z
      .strictObject({
        /** Default timeout of one exec call; the call may ask for less or more. */
        timeoutSeconds: z.number().int().min(1).default(1800),
        /** Output kept per call (head + tail). */
        maxOutputChars: z.number().int().min(1000).default(200_000),
        /** How long an approval request waits for an operator before it is denied. */
        approvalTimeoutMinutes: z.number().min(0.1).default(30),
        /** The OS sandbox every command runs in (bubblewrap on Linux). */
        sandbox: z
          .strictObject({
            /** `auto`: use it when it can start; `off`: run unsandboxed on purpose (doctor and status say so, and nothing runs unasked). */
            mode: z.enum(['auto', 'off']).default('auto'),
            /** Secret locations hidden inside (home-relative or absolute); the claw state dir is always hidden. */
            hiddenPaths: z.array(z.string()).default(DEFAULT_SECRET_PATHS),
            /**
             * What a command may read of the home folder (home-relative or absolute): home is
             * otherwise empty inside, except the workspace, tools.fsRoots and the toolchains on
             * PATH. `["."]` shows all of it again (hiddenPaths stay hidden).
             */
            readable: z.array(z.string()).default(DEFAULT_READABLE),
            /** Give every command the host network; otherwise only a call that asks for it, once approved. */
            network: z.boolean().default(false),
            /** Neutralise git's code-running settings (core.fsmonitor, hooks, pager, textconv, filters, aliases). */
            hardenGit: z.boolean().default(true),
          })
          .prefault({}),
      })
      .prefault({}),
    fs: z
      .strictObject({
        /** Largest file `read` returns in one call. */
        maxReadBytes: z
          .number()
          .int()
          .min(1024)
          .default(256 * 1024),
      })
      .prefault({}),
    /** web_fetch: reachable private hosts, body and time caps. */
    web: webToolSection.prefault({}),
    /** The `browser` tool: a headless Chromium started on first use, one profile per agent. */
    browser: browserToolSection.prefault({}),
    /** The sessions tools: `agent` shows an agent its own sessions and their children; `all` shows every agent's. */
    sessions: z
      .strictObject({
        visibility: z.enum(['agent', 'all']).default('agent'),
        /** Other agents whose sessions every agent may read, message and spawn children as (besides its own); `visibility: all` is every agent. */
        allowAgents: z.array(z.string().min(1)).default([]),
      })
      .prefault({}),
  }),
);
