import { z } from 'zod';
import { queueModeName, sessionKind, thinkingLevelName } from '../protocol/index.js';

/** One key's record in `agents/<agentId>/sessions/sessions.json`. */
export const sessionEntry = z.object({
  sessionId: z.string().min(1),
  kind: sessionKind,
  createdAt: z.number(),
  updatedAt: z.number(),
  label: z.string().optional(),
  model: z.string().optional(),
  thinking: thinkingLevelName.optional(),
  queueMode: queueModeName.optional(),
  tokens: z.object({
    input: z.number().int().min(0),
    output: z.number().int().min(0),
    context: z.number().int().min(0),
  }).default({ input: 0, output: 0, context: 0 }),
  costUsd: z.number().min(0).default(0),
  compactionCount: z.number().int().min(0).default(0),
  lastChannel: z.string().optional(),
  spawnedBy: z.string().optional(),
  spawnDepth: z.number().int().min(0).optional(),
});
export type SessionEntry = z.infer<typeof sessionEntry>;

export const sessionStoreFile = z.object({
  version: z.literal(1),
  sessions: z.record(z.string(), sessionEntry),
});
export type SessionStoreFile = z.infer<typeof sessionStoreFile>;
