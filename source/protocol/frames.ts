import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { errorShape } from './errors.js';

/** Largest frame accepted before `connect` succeeds. */
export const PRE_AUTH_MAX_BYTES = 64 * 1024;
/** Largest frame accepted from an authenticated client. */
export const MAX_FRAME_BYTES = 25 * 1024 * 1024;
/** Time a new socket has to send `connect`. */
export const CONNECT_TIMEOUT_MS = 10_000;

export const requestFrame = lazySchema(() =>
  z.strictObject({
    type: z.literal('req'),
    id: z.string().min(1).max(128),
    method: z.string().min(1).max(128),
    params: z.unknown().optional(),
  }),
);
export type RequestFrame = z.infer<typeof requestFrame>;

export const responseFrame = lazySchema(() =>
  z.discriminatedUnion('ok', [
    z.strictObject({ type: z.literal('res'), id: z.string(), ok: z.literal(true), payload: z.unknown() }),
    z.strictObject({ type: z.literal('res'), id: z.string(), ok: z.literal(false), error: errorShape }),
  ]),
);
export type ResponseFrame = z.infer<typeof responseFrame>;

export const eventFrame = lazySchema(() =>
  z.strictObject({
    type: z.literal('event'),
    event: z.string(),
    payload: z.unknown(),
    seq: z.number().int().min(0),
  }),
);
export type EventFrame = z.infer<typeof eventFrame>;

export const serverFrame = lazySchema(() => z.union([responseFrame, eventFrame]));
export type ServerFrame = z.infer<typeof serverFrame>;

export const scopes = ['read', 'write', 'admin', 'approvals'] as const;
export type Scope = (typeof scopes)[number];
export const scope = lazySchema(() => z.enum(scopes));

/**
 * `admin` implies `write`, which implies `read`. `approvals` is granted only
 * explicitly: resolving an exec approval is a separate trust decision.
 */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  if (needed === 'read') return granted.includes('write') || granted.includes('admin');
  if (needed === 'write') return granted.includes('admin');
  return false;
}
