import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** One external coding agent that speaks the Agent Client Protocol over stdio (e.g. `npx @zed-industries/codex-acp`). */
export const acpAgentEntry = lazySchema(() =>
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** Added to the environment the agent process starts with. */
    env: z.record(z.string(), z.string()).default({}),
    /** Working folder of the agent (and the root its file reads and writes are confined to besides tools.fsRoots); default the agent's workspace. */
    cwd: z.string().optional(),
    /**
     * The agent runs inside the exec sandbox: its cwd and tools.fsRoots writable,
     * the state dir, secret folders and home hidden. `false` runs it as your user
     * (only claw.json can say so).
     */
    sandbox: z.boolean().default(true),
    /** Inside the sandbox: the network, which an agent needs to call its own model. */
    network: z.boolean().default(true),
    /** What of home it may read, home-relative or absolute: its own config folder (`.codex`, `.claude`). */
    readable: z.array(z.string()).default([]),
    /** Folders it may write besides its cwd and tools.fsRoots, home-relative or absolute: its own state (`.codex` holds codex's sessions and logs). */
    writable: z.array(z.string()).default([]),
  }),
);

/** `acp`: external coding agents `sessions_spawn {runtime: "acp", agent}` may start as children. */
export const acpSection = lazySchema(() =>
  z.strictObject({
    /** Default: on when any agent is configured. */
    enabled: z.boolean().optional(),
    agents: z.record(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'an ACP agent name: letters, digits, - and _'), acpAgentEntry).default({}),
  }),
);
export type AcpSettings = z.output<typeof acpSection>;
