import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';
import { configStatus, healthPayload, presenceEntry, recoveryReport } from '../gateway-state.js';
import { gatewaySnapshot } from '../snapshot.js';
import { scheduleOverview } from './schedule.js';
import { cooldownEntry } from './models.js';
import { spendSummary } from './spend.js';

export const statusPayload = lazySchema(() =>
  z.strictObject({
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
    /** Absent when the gateway runs without the core services (tests of the transport alone). */
    config: configStatus.optional(),
    /** Next cron and heartbeat runs and the schedule's notices (a spent budget, a disabled job). */
    schedule: scheduleOverview.optional(),
    /** Keys and models failover is skipping now, why, and until when. */
    cooldowns: z.array(cooldownEntry).optional(),
    /** The last start's crash recovery, when the crash-loop guard failed a message. */
    recovery: recoveryReport.optional(),
    /** Today's spend per agent and the nearest cap. */
    spend: spendSummary.optional(),
  }),
);
export type StatusPayload = z.infer<typeof statusPayload>;

export const gatewayMethods = {
  health: defineMethod({
    name: 'health',
    description: 'Liveness and the state of each subsystem check.',
    params: () => z.strictObject({}).optional(),
    result: () => healthPayload,
    scope: 'read',
    mutating: false,
  }),
  status: defineMethod({
    name: 'status',
    description: 'Version, pid, uptime, address, connected clients and state dir.',
    params: () => z.strictObject({}).optional(),
    result: () => statusPayload,
    scope: 'read',
    mutating: false,
  }),
  'gateway.shutdown': defineMethod({
    name: 'gateway.shutdown',
    description: 'Drain running work and stop (or restart in place) the gateway.',
    params: () =>
      z
        .strictObject({
          restart: z.boolean().optional(),
          reason: z.string().max(200).optional(),
          idempotencyKey: z.string().max(128).optional(),
        })
        .optional(),
    result: () => z.strictObject({ accepted: z.boolean(), restart: z.boolean() }),
    scope: 'admin',
    mutating: true,
  }),
  'events.snapshot': defineMethod({
    name: 'events.snapshot',
    description: 'The current state snapshot, for a client that noticed a seq gap.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ seq: z.number().int(), snapshot: gatewaySnapshot }),
    scope: 'read',
    mutating: false,
  }),
};
