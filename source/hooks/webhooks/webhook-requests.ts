import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** `POST /hooks/wake` */
export const wakeRequest = lazySchema(() =>
  z.strictObject({
    text: z.string().min(1, 'text must say what happened'),
    mode: z.enum(['now', 'next-heartbeat']).default('now'),
  }),
);

/** `POST /hooks/agent` */
export const agentRequest = lazySchema(() =>
  z.strictObject({
    message: z.string().min(1, 'message must hold the text for the agent'),
    agentId: z.string().min(1).optional(),
    sessionKey: z.string().min(1).optional(),
    deliver: z.boolean().optional(),
    channel: z.string().min(1).optional(),
    to: z.string().min(1).optional(),
    /** A model ref for this turn only; checked before the request is accepted. */
    model: z.string().min(1).optional(),
    /** This turn's limit, at most agents.defaults.turnTimeoutSeconds. */
    timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  }),
);

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');
}
