import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const channelStatus = lazySchema(() =>
  z.strictObject({
    channel: z.string(),
    accountId: z.string(),
    state: z.enum(['starting', 'running', 'reconnecting', 'error', 'stopped']),
    reason: z.string().optional(),
    identity: z.string().optional(),
    lastInboundAt: z.number().optional(),
    lastOutboundAt: z.number().optional(),
    reconnectAttempts: z.number().int(),
    /** Who answers approvals from this account (channels.<channel>.accounts.<id>.owner, else allowFrom[0]); absent: approvals only in the TUI. */
    owner: z.string().optional(),
    /** Messages handed to the agent since the account started. */
    handled: z.number().int().optional(),
    /** Updates not taken, by reason (policy, not mentioned, a service message …), since the account started. */
    ignored: z.record(z.string(), z.number().int()).optional(),
  }),
);
export type ChannelStatusInfo = z.infer<typeof channelStatus>;

export const pendingPairing = lazySchema(() =>
  z.strictObject({
    code: z.string(),
    channel: z.string(),
    accountId: z.string(),
    senderId: z.string(),
    senderName: z.string().optional(),
    chatId: z.string(),
    createdAt: z.number(),
    expiresAt: z.number(),
  }),
);

export const approvedSender = lazySchema(() =>
  z.strictObject({
    channel: z.string(),
    accountId: z.string(),
    senderId: z.string(),
    senderName: z.string().optional(),
    chatId: z.string(),
    approvedAt: z.number(),
    /** The account's owner by pairing. */
    owner: z.boolean(),
    /** When `claw pairing approve CODE --owner` made them owner; absent on an owner from before that flag (honoured only when allowFrom is empty). */
    ownerSince: z.number().optional(),
  }),
);

const pairingCode = lazySchema(() => z.strictObject({ code: z.string().min(1).max(32), idempotencyKey: z.string().max(128).optional() }));

export const channelMethods = {
  'channels.status': defineMethod({
    name: 'channels.status',
    description: 'Every configured channel account with its state (running, reconnecting, error with the reason).',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ channels: z.array(channelStatus) }),
    scope: 'read',
    mutating: false,
  }),
  'pairing.list': defineMethod({
    name: 'pairing.list',
    description: 'Pairing codes waiting for an answer, and the senders approved so far.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ pending: z.array(pendingPairing), approved: z.array(approvedSender) }),
    scope: 'read',
    mutating: false,
  }),
  'pairing.approve': defineMethod({
    name: 'pairing.approve',
    description: 'Approve a pairing code: the sender may talk to the agent from now on and is told so.',
    params: () => pairingCode.extend({ owner: z.boolean().optional() }),
    result: () => z.strictObject({ approved: approvedSender, told: z.boolean(), replaced: z.string().optional() }),
    scope: 'admin',
    mutating: true,
  }),
  'pairing.deny': defineMethod({
    name: 'pairing.deny',
    description: 'Refuse a pairing code; the sender gets no answer.',
    params: () => pairingCode,
    result: () => z.strictObject({ denied: pendingPairing }),
    scope: 'admin',
    mutating: true,
  }),
};
