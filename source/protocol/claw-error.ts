// The wire error without zod: the CLI and the TUI build and read errors on
// every call, and loading zod for that alone would double `claw status`.
export const errorCodes = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unavailable', 'timeout', 'internal', 'rate_limited'] as const;
export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  retryAfterMs?: number | undefined;
  details?: unknown;
}

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
