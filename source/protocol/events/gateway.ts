import { z } from 'zod';
import { defineEvent } from '../define.js';
import { configStatus, healthPayload, presenceEntry } from '../gateway-state.js';
import { cooldownEntry } from '../methods/models.js';

export const gatewayEvents = {
  tick: defineEvent({
    name: 'tick',
    description: 'Keep-alive every 15 s with the gateway clock.',
    payload: () => z.strictObject({ ts: z.number() }),
    scope: 'read',
  }),
  presence: defineEvent({
    name: 'presence',
    description: 'The connected clients changed.',
    payload: () => z.strictObject({ clients: z.array(presenceEntry) }),
    scope: 'read',
  }),
  health: defineEvent({
    name: 'health',
    description: 'A subsystem check changed state.',
    payload: () => healthPayload,
    scope: 'read',
  }),
  config: defineEvent({
    name: 'config',
    description: 'claw.json changed: applied live, invalid (the last good config keeps running), or waiting for a restart.',
    payload: () => configStatus,
    scope: 'read',
  }),
  cooldowns: defineEvent({
    name: 'cooldowns',
    description: 'A key or model started or stopped cooling down: the full list now.',
    payload: () => z.strictObject({ cooldowns: z.array(cooldownEntry) }),
    scope: 'read',
  }),
  shutdown: defineEvent({
    name: 'shutdown',
    description: 'The gateway is stopping; restartExpectedMs is set when it will come back.',
    payload: () => z.strictObject({ reason: z.string(), restartExpectedMs: z.number().int().min(0).optional() }),
    scope: 'read',
  }),
};
