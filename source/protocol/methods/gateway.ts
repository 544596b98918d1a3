import { z } from 'zod';
import { defineMethod } from '../define.js';

export const healthPayload = z.strictObject({
  ok: z.boolean(),
  uptimeMs: z.number(),
  checks: z.record(z.string(), z.strictObject({ ok: z.boolean(), detail: z.string().optional() })),
});
export type HealthPayload = z.infer<typeof healthPayload>;

export const presenceEntry = z.strictObject({
  connId: z.string(),
  clientId: z.string(),
  clientName: z.string().optional(),
  version: z.string(),
  address: z.string(),
  connectedAt: z.number(),
  scopes: z.array(z.string()),
});
export type PresenceEntry = z.infer<typeof presenceEntry>;

export const statusPayload = z.strictObject({
  version: z.string(),
  pid: z.number().int(),
  uptimeMs: z.number(),
  host: z.string(),
  bind: z.string(),
  port: z.number().int(),
  stateDir: z.string(),
  clients: z.array(presenceEntry),
  epoch: z.string(),
  seq: z.number().int(),
  /** The service manager running the gateway, if any. */
  supervisor: z.enum(['systemd', 'launchd', 'none']),
});
export type StatusPayload = z.infer<typeof statusPayload>;

export const gatewayMethods = {
  health: defineMethod({
    name: 'health',
    description: 'Liveness and the state of each subsystem check.',
    params: z.strictObject({}).optional(),
    result: healthPayload,
    scope: 'read',
    mutating: false,
  }),
  status: defineMethod({
    name: 'status',
    description: 'Version, pid, uptime, address, connected clients and state dir.',
    params: z.strictObject({}).optional(),
    result: statusPayload,
    scope: 'read',
    mutating: false,
  }),
  'gateway.shutdown': defineMethod({
    name: 'gateway.shutdown',
    description: 'Drain running work and stop (or restart in place) the gateway.',
    params: z.strictObject({
      restart: z.boolean().optional(),
      reason: z.string().max(200).optional(),
      idempotencyKey: z.string().max(128).optional(),
    }).optional(),
    result: z.strictObject({ accepted: z.boolean(), restart: z.boolean() }),
    scope: 'admin',
    mutating: true,
  }),
  'events.snapshot': defineMethod({
    name: 'events.snapshot',
    description: 'The current state snapshot, for a client that noticed a seq gap.',
    params: z.strictObject({}).optional(),
    result: z.strictObject({ seq: z.number().int(), snapshot: z.record(z.string(), z.unknown()) }),
    scope: 'read',
    mutating: false,
  }),
};
