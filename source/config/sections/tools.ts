import { z } from 'zod';

export const toolProfiles = ['minimal', 'messaging', 'coding', 'full'] as const;

export const toolsSection = z.strictObject({
  profile: z.enum(toolProfiles).default('coding'),
  /** Tool names or `group:<name>` added on top of the profile. */
  allow: z.array(z.string()).default([]),
  /** Tool names or `group:<name>` removed; deny always wins. */
  deny: z.array(z.string()).default([]),
  /** Extra folders the fs tools may touch besides the workspace. */
  fsRoots: z.array(z.string()).default([]),
});
