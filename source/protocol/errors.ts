import { z } from 'zod';

export const errorCodes = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unavailable', 'timeout', 'internal', 'rate_limited'] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorShape = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  retryable: z.boolean(),
  retryAfterMs: z.number().int().min(0).optional(),
  details: z.unknown().optional(),
});
export type ErrorShape = z.infer<typeof errorShape>;

const retryableByDefault: ReadonlySet<ErrorCode> = new Set(['unavailable', 'timeout', 'rate_limited']);

/** The one error type that crosses the wire; handlers throw it, clients receive it. */
export class ClawError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { retryable?: boolean; retryAfterMs?: number; details?: unknown } = {}) {
    super(message);
    this.name = 'ClawError';
    this.code = code;
    this.retryable = options.retryable ?? retryableByDefault.has(code);
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }

  toShape(): ErrorShape {
    const shape: ErrorShape = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.retryAfterMs !== undefined) shape.retryAfterMs = this.retryAfterMs;
    if (this.details !== undefined) shape.details = this.details;
    return shape;
  }

  static fromShape(shape: ErrorShape): ClawError {
    return new ClawError(shape.code, shape.message, {
      retryable: shape.retryable,
      ...(shape.retryAfterMs !== undefined ? { retryAfterMs: shape.retryAfterMs } : {}),
      ...(shape.details !== undefined ? { details: shape.details } : {}),
    });
  }
}

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
