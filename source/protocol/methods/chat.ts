import { z } from 'zod';
import { defineMethod } from '../define.js';
import { queueModeName } from './sessions.js';

export const chatMethods = {
  'chat.send': defineMethod({
    name: 'chat.send',
    description: 'Queue a user message for a session; durable before it is acknowledged.',
    params: () =>
      z.strictObject({
        sessionKey: z.string().min(1).max(512),
        text: z.string(),
        /** Generated and echoed when missing; repeats within 5 min are not run again. */
        idempotencyKey: z.string().min(1).max(128).optional(),
        queueMode: queueModeName.optional(),
      }),
    result: () =>
      z.strictObject({
        runId: z.string(),
        messageId: z.string(),
        idempotencyKey: z.string(),
        /** `dropped`: the session's queue was full and the drop policy refused it (a `chat` error event says so too). */
        status: z.enum(['started', 'queued', 'duplicate', 'dropped']),
      }),
    scope: 'write',
    mutating: true,
  }),
  'chat.abort': defineMethod({
    name: 'chat.abort',
    description: 'Abort the running turn of a session (queued messages stay queued).',
    params: () => z.strictObject({ sessionKey: z.string().min(1).max(512), runId: z.string().optional() }),
    result: () => z.strictObject({ aborted: z.boolean(), runId: z.string().optional() }),
    scope: 'write',
    mutating: false,
  }),
};
