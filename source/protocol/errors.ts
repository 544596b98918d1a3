import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { errorCodes, type ErrorShape } from './claw-error.js';

export const errorShape = lazySchema(
  () =>
    z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      retryable: z.boolean(),
      retryAfterMs: z.number().int().min(0).optional(),
      details: z.unknown().optional(),
    }) satisfies z.ZodType<ErrorShape>,
);

/** WebSocket close codes the gateway uses, with the reason text always set. */
export const closeCodes = {
  normal: 1000,
  goingAway: 1001,
  tooBig: 1009,
  badFrame: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  connectTimeout: 4408,
  protocolMismatch: 4409,
  lockedOut: 4429,
  slowConsumer: 4508,
} as const;
