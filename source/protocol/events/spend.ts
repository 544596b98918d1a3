import { z } from 'zod';
import { defineEvent } from '../define.js';
import { spendSummary } from '../methods/spend.js';

export const spendEvents = {
  spend: defineEvent({
    name: 'spend',
    description: "Today's spend changed (a call settled), or a cap warned or paused a session.",
    payload: () =>
      spendSummary.extend({
        notice: z.strictObject({ kind: z.enum(['warning', 'paused']), text: z.string(), sessionKey: z.string().optional() }).optional(),
      }),
    scope: 'read',
  }),
};
