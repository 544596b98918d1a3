import type { ClawConfig } from '../config/index.js';

import type { SessionKind } from '../protocol/index.js';

export type { SessionKind };
export type DmScope = ClawConfig['session']['dmScope'];

/** What a session key says about itself; `agentId` is absent for cron/hook keys (they use the default agent). */
export interface ParsedSessionKey {
  key: string;
  kind: SessionKind;
  agentId?: string;
  channel?: string;
  accountId?: string;
  peerId?: string;
  threadId?: string;
}

const part = /^[^:\s]+$/;
const agentIdShape = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function checkPart(value: string, what: string): string {
  if (!part.test(value)) throw new Error(`${what} "${value}" may not be empty or contain ':' or spaces`);
  return value;
}

export function mainSessionKey(agentId: string): string {
  return `agent:${checkPart(agentId, 'agent id')}:main`;
}

export function cronSessionKey(jobId: string): string {
  return `cron:${checkPart(jobId, 'cron job id')}`;
}

export function hookSessionKey(hookId: string): string {
  return `hook:${checkPart(hookId, 'hook id')}`;
}

export function subagentSessionKey(agentId: string, uuid: string): string {
  return `agent:${checkPart(agentId, 'agent id')}:subagent:${checkPart(uuid, 'subagent id')}`;
}

export interface DirectKeyInput {
  agentId: string;
  channel: string;
  peerId: string;
  accountId?: string | undefined;
  dmScope: DmScope;
}

/** The session of a direct message, bucketed by `dmScope`. */
export function directSessionKey(input: DirectKeyInput): string {
  const agent = checkPart(input.agentId, 'agent id');
  const peer = checkPart(input.peerId, 'peer id');
  switch (input.dmScope) {
    case 'main':
      return mainSessionKey(agent);
    case 'per-peer':
      return `agent:${agent}:direct:${peer}`;
    case 'per-channel-peer':
      return `agent:${agent}:${checkPart(input.channel, 'channel')}:direct:${peer}`;
    case 'per-account-channel-peer':
      return `agent:${agent}:${checkPart(input.channel, 'channel')}:${checkPart(input.accountId ?? 'default', 'account id')}:direct:${peer}`;
  }
}

export function groupSessionKey(agentId: string, channel: string, groupId: string, threadId?: string): string {
  const base = `agent:${checkPart(agentId, 'agent id')}:${checkPart(channel, 'channel')}:group:${checkPart(groupId, 'group id')}`;
  return threadId === undefined ? base : `${base}:thread:${checkPart(threadId, 'thread id')}`;
}

/**
 * Parses every key shape of SPEC.md; returns undefined for anything else so
 * callers can answer with the list of valid shapes.
 */
export function parseSessionKey(key: string): ParsedSessionKey | undefined {
  const parts = key.split(':');
  if (parts.some((p) => !part.test(p))) return undefined;
  const [head, a] = parts;
  if (head === 'cron' && parts.length === 2) return { key, kind: 'cron', ...(a ? { peerId: a } : {}) };
  if (head === 'hook' && parts.length === 2) return { key, kind: 'hook', ...(a ? { peerId: a } : {}) };
  if (head !== 'agent' || !a || !agentIdShape.test(a)) return undefined;
  let thread: string | undefined;
  let rest = parts.slice(2);
  if (rest.length >= 2 && rest[rest.length - 2] === 'thread') {
    thread = rest[rest.length - 1];
    rest = rest.slice(0, -2);
  }
  const withThread = thread === undefined ? {} : { threadId: thread };
  if (rest.length === 1 && rest[0] === 'main' && !thread) return { key, kind: 'main', agentId: a };
  if (rest.length === 2 && rest[0] === 'subagent' && !thread) return { key, kind: 'subagent', agentId: a, peerId: rest[1]! };
  if (rest.length === 2 && rest[0] === 'direct') return { key, kind: 'direct', agentId: a, peerId: rest[1]!, ...withThread };
  if (rest.length === 3 && (rest[1] === 'direct' || rest[1] === 'group')) {
    return { key, kind: rest[1], agentId: a, channel: rest[0]!, peerId: rest[2]!, ...withThread };
  }
  if (rest.length === 4 && rest[2] === 'direct') {
    return { key, kind: 'direct', agentId: a, channel: rest[0]!, accountId: rest[1]!, peerId: rest[3]!, ...withThread };
  }
  return undefined;
}

export const sessionKeyShapes = [
  'agent:<agentId>:main',
  'agent:<agentId>:<channel>:direct:<peerId>',
  'agent:<agentId>:<channel>:group:<groupId>[:thread:<threadId>]',
  'agent:<agentId>:subagent:<uuid>',
  'cron:<jobId>',
  'hook:<id>',
] as const;
