import { z } from 'zod';
import { lazySchema, OUTSIDE_KINDS, principalKind } from '../../protocol/index.js';
import type { SessionSummary, TranscriptEntry } from '../../protocol/index.js';
import { defineTool, toolError, toolOk, type ToolDefinition } from '../../tools/index.js';
import type { SessionsToolsHost } from './host.js';
import { MAX_SEND_HOPS } from './send-hops.js';
import { sessionStatus } from './session-status.js';
import { canSeeSession, invisibleSession, mayReachAgent } from './visibility.js';

const sessionKinds = ['main', 'direct', 'group', 'cron', 'hook', 'subagent'] as const;
const LIST_MAX = 100;
const HISTORY_DEFAULT = 20;
const HISTORY_MAX = 200;
const TOOL_TEXT_MAX = 2000;
const DEFAULT_SEND_TIMEOUT_SECONDS = 60;

function iso(at: number): string {
  return new Date(at).toISOString();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

function listed(session: SessionSummary) {
  return {
    sessionKey: session.key,
    agentId: session.agentId,
    kind: session.kind,
    ...(session.label ? { label: session.label } : {}),
    ...(session.model ? { model: session.model } : {}),
    updatedAt: iso(session.updatedAt),
    running: session.running,
    queued: session.queued,
    tokens: session.tokens,
    ...(session.spawnedBy ? { spawnedBy: session.spawnedBy } : {}),
  };
}

/** Transcript entries as a reader of another session needs them: who said what, tool chatter only on request. */
function historyItems(entries: readonly TranscriptEntry[], includeTools: boolean) {
  const items: Array<Record<string, unknown>> = [];
  for (const entry of entries) {
    if (entry.type !== 'message') continue;
    const at = iso(entry.timestamp);
    if (entry.role === 'user') {
      const from = entry.meta?.senderName ?? entry.meta?.channel;
      items.push({ role: 'user', at, ...(from ? { from } : {}), text: entry.content });
    } else if (entry.role === 'assistant') {
      const text = entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const calls = entry.content.flatMap((block) => (block.type === 'toolCall' ? [{ tool: block.name, arguments: block.arguments }] : []));
      if (!includeTools && text.trim() === '') continue;
      items.push({ role: 'assistant', at, text, ...(includeTools && calls.length > 0 ? { toolCalls: calls } : {}) });
    } else if (includeTools) {
      items.push({ role: 'tool', at, tool: entry.toolName, isError: entry.isError, text: clip(entry.content, TOOL_TEXT_MAX) });
    }
  }
  return items;
}

/**
 * `sessions_list`, `sessions_history`, `sessions_send` and `session_status`
 * (group `sessions`). An agent sees its own sessions and its children's
 * (`tools.sessions.allowAgents` adds named agents, `visibility: all` every agent's); a chain of
 * sends stops after MAX_SEND_HOPS, and a send back to a session that is
 * waiting for the sender's own reply is refused instead of deadlocking.
 */
export function createSessionsTools(host: SessionsToolsHost): ToolDefinition[] {
  /** Sessions whose `sessions_send` call is waiting for a reply, and from which session. */
  const waitingOn = new Map<string, string>();

  function visible(callerAgentId: string, key: string): SessionSummary | string {
    const session = host.get(key);
    if (!session) return `No session ${key}. sessions_list shows the sessions you can see.`;
    return canSeeSession(callerAgentId, session, host.reach()) ? session : invisibleSession(key, callerAgentId);
  }

  function waitsForCaller(target: string, caller: string): boolean {
    const seen = new Set<string>();
    for (let at: string | undefined = target; at !== undefined && !seen.has(at); at = waitingOn.get(at)) {
      if (waitingOn.get(at) === caller) return true;
      seen.add(at);
    }
    return false;
  }

  const sessions_list = defineTool({
    name: 'sessions_list',
    group: 'sessions',
    risk: 'low',
    description:
      "List the sessions you can see (your own and your sub-agents'), newest first: key, kind, model, last activity, whether a turn runs or waits, tokens. Filter by kind, or to those active in the last activeMinutes.",
    input: lazySchema(() =>
      z.strictObject({
        kind: z.enum(sessionKinds).optional(),
        activeMinutes: z.number().min(1).max(525_600).optional(),
      }),
    ),
    async execute(args, context) {
      const reach = host.reach();
      const since = args.activeMinutes === undefined ? undefined : host.now() - args.activeMinutes * 60_000;
      const all = host
        .list()
        .filter((session) => canSeeSession(context.agentId, session, reach))
        .filter((session) => args.kind === undefined || session.kind === args.kind)
        .filter((session) => since === undefined || session.updatedAt >= since)
        .sort((a, b) => b.updatedAt - a.updatedAt);
      const shown = all.slice(0, LIST_MAX);
      const result = {
        count: all.length,
        ...(all.length > shown.length ? { note: `Showing the ${shown.length} most recent; narrow with kind or activeMinutes.` } : {}),
        sessions: shown.map(listed),
      };
      return toolOk(JSON.stringify(result, null, 2), { count: all.length });
    },
  });

  const sessions_history = defineTool({
    name: 'sessions_history',
    group: 'sessions',
    risk: 'low',
    description: `Read the latest messages of a session you can see (default ${HISTORY_DEFAULT}, at most ${HISTORY_MAX}). Tool calls and results are left out unless includeTools is true.`,
    input: lazySchema(() =>
      z.strictObject({
        sessionKey: z.string().min(1).max(512),
        limit: z.number().int().min(1).max(HISTORY_MAX).optional(),
        includeTools: z.boolean().optional(),
      }),
    ),
    async execute(args, context) {
      const session = visible(context.agentId, args.sessionKey);
      if (typeof session === 'string') return toolError(session);
      const items = historyItems(await host.entries(session.key), args.includeTools ?? false);
      const limit = args.limit ?? HISTORY_DEFAULT;
      const shown = items.slice(-limit);
      const result = {
        sessionKey: session.key,
        total: items.length,
        ...(items.length > shown.length ? { olderOmitted: items.length - shown.length } : {}),
        messages: shown,
      };
      return toolOk(JSON.stringify(result, null, 2), { count: shown.length });
    },
  });

  const sessions_send = defineTool({
    name: 'sessions_send',
    group: 'sessions',
    risk: 'medium',
    description: `Send a message to another session you can see and wait up to timeoutSeconds (default ${DEFAULT_SEND_TIMEOUT_SECONDS}; 0 = do not wait) for its reply. A chain of sends between sessions stops after ${MAX_SEND_HOPS} hops; answer in your own reply rather than sending back.`,
    input: lazySchema(() =>
      z.strictObject({
        sessionKey: z.string().min(1).max(512),
        message: z.string().min(1).max(100_000),
        timeoutSeconds: z.number().int().min(0).max(600).optional(),
      }),
    ),
    async execute(args, context) {
      const from = context.sessionKey;
      const target = args.sessionKey;
      if (target === from) return toolError('That is this session; sessions_send writes to another one. Answer here directly.');
      const hops = host.hopsOf(from) + 1;
      if (hops > MAX_SEND_HOPS) {
        return toolError(
          `Hop limit reached: this turn answers a message that already came through ${hops - 1} sessions_send hops, and a chain stops at ${MAX_SEND_HOPS} so sessions cannot ping-pong. Put what you wanted to send in your reply instead.`,
          { hops, limit: MAX_SEND_HOPS },
        );
      }
      const known = host.get(target);
      if (known) {
        if (!canSeeSession(context.agentId, known, host.reach())) return toolError(invisibleSession(target, context.agentId));
      } else {
        const agentId = /^agent:([^:]+):/.exec(target)?.[1];
        if (!agentId) return toolError(`No session ${target}. sessions_list shows the sessions you can see.`);
        if (!host.agentIds().includes(agentId)) return toolError(`No agent "${agentId}". Known agents: ${host.agentIds().join(', ')}.`);
        if (!mayReachAgent(context.agentId, agentId, host.reach())) return toolError(invisibleSession(target, context.agentId));
      }
      // A turn someone outside asked for cannot put words in the mouth of the owner's session.
      const principal = context.principal ?? 'owner';
      const targetPrincipal = known?.principal ?? 'owner';
      if (OUTSIDE_KINDS.has(principalKind(principal)) && !OUTSIDE_KINDS.has(principalKind(targetPrincipal)) && host.reach().visibility !== 'all') {
        return toolError(
          `This turn acts for ${principal}, and ${target} is a session of the owner: a message from here would reach it with the owner's trust. An operator can allow it by setting tools.sessions.visibility to "all" in claw.json (the message then arrives fenced as untrusted, with ${principal}'s tools).`,
        );
      }
      if (waitsForCaller(target, from)) {
        return toolError(
          `${target} is waiting for your reply to its own message; a message back would only reach it after it stops waiting. Answer it in your reply instead.`,
        );
      }
      const waitMs = (args.timeoutSeconds ?? DEFAULT_SEND_TIMEOUT_SECONDS) * 1000;
      if (waitMs > 0) waitingOn.set(from, target);
      let sent: Awaited<ReturnType<SessionsToolsHost['send']>>;
      try {
        sent = await host.send({ from, to: target, text: args.message, hops, waitMs, signal: context.signal, principal });
      } finally {
        if (waitingOn.get(from) === target) waitingOn.delete(from);
      }
      const base = { sessionKey: target, runId: sent.runId, hops };
      if (sent.status === 'dropped') return toolError(`${target} refused the message (a policy dropped it).`, base);
      if (waitMs === 0) return toolOk(JSON.stringify({ ...base, status: 'sent', note: `Not waiting; read the answer later with sessions_history.` }), base);
      if (!sent.reply) {
        return toolOk(
          JSON.stringify({
            ...base,
            status: 'timeout',
            note: `No reply within ${waitMs / 1000} s. The message stays queued or running there; read the answer later with sessions_history.`,
          }),
          base,
        );
      }
      const { reply } = sent;
      if (reply.status === 'replied') return toolOk(JSON.stringify({ ...base, status: 'replied', reply: reply.text }), base);
      if (reply.status === 'suppressed') return toolOk(JSON.stringify({ ...base, status: 'no_reply', note: `${target} chose not to reply.` }), base);
      return toolError(`${target} did not answer: ${reply.status}${reply.text ? ` (${reply.text})` : ''}.`, { ...base, status: reply.status });
    },
  });

  const session_status = defineTool({
    name: 'session_status',
    group: 'sessions',
    risk: 'low',
    description:
      'Status of this session (or another you can see): model, tokens in/out, context window use, queue (running, queued), running sub-agents, compactions.',
    input: lazySchema(() => z.strictObject({ sessionKey: z.string().min(1).max(512).optional() })),
    async execute(args, context) {
      const key = args.sessionKey ?? context.sessionKey;
      const session = visible(context.agentId, key);
      if (typeof session === 'string') return toolError(session);
      const status = sessionStatus(session, await host.model(session), host.list());
      return toolOk(JSON.stringify(status, null, 2), status);
    },
  });

  return [sessions_list, sessions_history, sessions_send, session_status] as ToolDefinition[];
}
