import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** `agents.defaults.subagents`: how children spawned with `sessions_spawn` are limited (SPEC "Subagents"). */
export const subagentsDefaults = lazySchema(() =>
  z.strictObject({
    /** How deep children may spawn children; a child at this depth gets no spawn tool. */
    maxSpawnDepth: z.number().int().min(1).max(3).default(1),
    /** Children of one parent session running (or queued) at once. */
    maxChildrenPerAgent: z.number().int().min(1).max(50).default(5),
    /** Aborting a parent's turn cancels the children it spawned; false lets them finish and report. */
    cancelWithParent: z.boolean().default(true),
    /** Default limit of one child run; `sessions_spawn` may ask for another. 0: only the turn timeout applies. */
    runTimeoutSeconds: z.number().int().min(0).default(0),
    /** Model of children that do not ask for one; default the parent agent's. */
    model: z.string().min(3).optional(),
    /** Characters of a child's final reply announced to the parent; the rest is cut with a note. */
    maxResultChars: z.number().int().min(500).max(100_000).default(16_000),
  }),
);
export type SubagentsSettings = z.output<typeof subagentsDefaults>;
