import { z } from 'zod';
import { defineEvent } from '../define.js';
import { healthPayload, presenceEntry } from '../methods/gateway.js';

export const gatewayEvents = {
  tick: defineEvent({
    name: 'tick',
    description: 'Keep-alive every 15 s with the gateway clock.',
    payload: z.strictObject({ ts: z.number() }),
    scope: 'read',
  }),
  presence: defineEvent({
    name: 'presence',
    description: 'The connected clients changed.',
    payload: z.strictObject({ clients: z.array(presenceEntry) }),
    scope: 'read',
  }),
  health: defineEvent({
    name: 'health',
    description: 'A subsystem check changed state.',
    payload: healthPayload,
    scope: 'read',
  }),
  shutdown: defineEvent({
    name: 'shutdown',
    description: 'The gateway is stopping; restartExpectedMs is set when it will come back.',
    payload: z.strictObject({ reason: z.string(), restartExpectedMs: z.number().int().min(0).optional() }),
    scope: 'read',
  }),
};
