import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const approvalDecision = lazySchema(() => z.enum(['once', 'session', 'always', 'deny']));

export const approvalRecord = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    kind: z.enum(['exec', 'mcp', 'acp', 'fs', 'spend', 'browser', 'plugin']),
    agentId: z.string(),
    sessionKey: z.string(),
    /** The exact text that will run if approved; never truncated. */
    command: z.string(),
    /** The parsed plan (argv of each part) that will run. */
    plan: z.unknown().optional(),
    cwd: z.string(),
    envKeys: z.array(z.string()),
    reason: z.string(),
    createdAt: z.number(),
    expiresAt: z.number(),
    status: z.enum(['pending', 'approved', 'denied', 'expired']),
    decision: approvalDecision.optional(),
    resolvedBy: z.string().optional(),
    resolvedAt: z.number().optional(),
  }),
);
export type ApprovalRecord = z.infer<typeof approvalRecord>;

export const approvalMethods = {
  'approvals.list': defineMethod({
    name: 'approvals.list',
    description: 'Approval requests, pending first.',
    params: () => z.strictObject({ status: z.enum(['pending', 'all']).optional() }).optional(),
    result: () => z.strictObject({ approvals: z.array(approvalRecord) }),
    scope: 'read',
    mutating: false,
  }),
  'approvals.resolve': defineMethod({
    name: 'approvals.resolve',
    description: 'Answer an approval request; the first answer wins.',
    params: () => z.strictObject({ id: z.string(), decision: approvalDecision, idempotencyKey: z.string().max(128).optional() }),
    result: () =>
      z.strictObject({
        approval: approvalRecord,
        /** For "always": the allowlist rule written, and recent commands it would have matched. */
        rule: z.string().optional(),
        wouldMatch: z.array(z.string()).optional(),
      }),
    scope: 'approvals',
    mutating: true,
  }),
};
