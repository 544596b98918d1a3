import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineEvent } from '../define.js';

export const skillsChangedPayload = lazySchema(() =>
  z.strictObject({
    agentId: z.string(),
    /** Bumps with every new snapshot of the agent's skills. */
    generation: z.number().int(),
    /** One line per skill that was added, removed or changed status. */
    changes: z.array(z.string()),
    /** What a client shows once: e.g. "skills: pdf-tools added (ready); notes broken: …". */
    notice: z.string(),
  }),
);

export const skillsEvents = {
  'skills.changed': defineEvent({
    name: 'skills.changed',
    description: 'A skill folder was added, edited or removed on disk; the next turn sees the new snapshot.',
    payload: () => skillsChangedPayload,
    scope: 'read',
  }),
};
