import { errorCodes, type ErrorShape } from './claw-error.js';
import type { ServerFrame } from './frames.js';

// The client's check of every frame it receives, written out by hand so the
// CLI and the TUI need no zod to talk to the gateway. It accepts exactly what
// `serverFrame` (frames.ts) accepts and returns the same value; a test holds
// the two together.

type Fields = Record<string, unknown>;

const codes: ReadonlySet<string> = new Set(errorCodes);

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnly(value: Fields, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => keys.includes(key)) && keys.every((key) => key in value);
}

function readError(value: unknown): ErrorShape | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message, retryable, retryAfterMs } = value;
  if (typeof code !== 'string' || !codes.has(code) || typeof message !== 'string' || typeof retryable !== 'boolean') return undefined;
  if (retryAfterMs !== undefined && !(Number.isSafeInteger(retryAfterMs) && (retryAfterMs as number) >= 0)) return undefined;
  const shape: ErrorShape = { code: code as ErrorShape['code'], message, retryable };
  if ('retryAfterMs' in value) shape.retryAfterMs = retryAfterMs as number | undefined;
  if ('details' in value) shape.details = value.details;
  return shape;
}

/** A frame from the gateway, or undefined when it is not a well-formed response or event. */
export function readServerFrame(value: unknown): ServerFrame | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'event') {
    const { event, payload, seq } = value;
    if (!hasOnly(value, ['type', 'event', 'payload', 'seq']) || typeof event !== 'string' || !Number.isSafeInteger(seq) || (seq as number) < 0)
      return undefined;
    return { type: 'event', event, payload, seq: seq as number };
  }
  if (value.type !== 'res' || typeof value.id !== 'string') return undefined;
  if (value.ok === true) return hasOnly(value, ['type', 'id', 'ok', 'payload']) ? { type: 'res', id: value.id, ok: true, payload: value.payload } : undefined;
  if (value.ok !== false || !hasOnly(value, ['type', 'id', 'ok', 'error'])) return undefined;
  const error = readError(value.error);
  return error ? { type: 'res', id: value.id, ok: false, error } : undefined;
}
