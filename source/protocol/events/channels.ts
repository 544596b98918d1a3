import { z } from 'zod';
import { defineEvent } from '../define.js';
import { channelStatus, pendingPairing } from '../methods/channels.js';

export const channelsEvents = {
  'channels.status': defineEvent({
    name: 'channels.status',
    description: 'A channel account changed state (running, reconnecting, error with the reason).',
    payload: () => z.strictObject({ channels: z.array(channelStatus) }),
    scope: 'read',
  }),
  'pairing.requested': defineEvent({
    name: 'pairing.requested',
    description: 'An unknown sender asked to pair; approve with `claw pairing approve CODE`.',
    payload: () => z.strictObject({ pairing: pendingPairing, notice: z.string() }),
    scope: 'read',
  }),
};
