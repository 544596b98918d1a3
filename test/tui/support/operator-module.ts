import type { ApprovalRecord, TranscriptEntry } from '../../../source/protocol/index.js';
import type { EventBus } from '../../../source/core/index.js';
import type { GatewayModule } from '../../../source/gateway/index.js';
import type { TestModule } from '../../support/gateway-harness.js';

export interface OperatorFake {
  factory: TestModule;
  calls: Array<{ method: string; params: unknown }>;
  bus(): EventBus;
  pending: ApprovalRecord[];
}

/**
 * A gateway module for TUI tests, served over the real socket: it records the
 * operator RPCs (chat.send, approvals.resolve, commands.run) and answers them
 * the way the protocol says, so the TUI can be driven without a model.
 */
export interface OperatorFakeOptions {
  pending?: ApprovalRecord[];
  /** How many older messages sessions.history holds before anything is sent. */
  history?: number;
  /** sessions.history answers only once this settles, with the transcript as it was when asked. */
  holdHistory?: Promise<void>;
  /** The first commands.list answers only once this settles, with the list as it was when asked. */
  holdFirstCommands?: Promise<void>;
  /** Commands added to the list from the second commands.list on (a server's prompts arriving meanwhile). */
  laterCommands?: Array<{ name: string; aliases: string[]; args: string; description: string }>;
}

export function operatorFake(options: OperatorFakeOptions = {}): OperatorFake {
  const calls: OperatorFake['calls'] = [];
  // What chat.send wrote, as the transcript would hold it: history pages include it.
  const written: TranscriptEntry[] = [];
  let bus: EventBus | undefined;
  const pending = [...(options.pending ?? [])];
  let listed = 0;
  const baseCommands = [
    { name: 'usage', aliases: [], args: '', description: 'token usage' },
    { name: 'status', aliases: [], args: '', description: 'Gateway and session status' },
    {
      name: 'think',
      aliases: [],
      args: '[level]',
      description: 'thinking level',
      arguments: [{ name: 'level', required: false, values: [{ value: 'low' }, { value: 'high' }] }],
    },
  ];
  const record = (method: string, params: unknown) => {
    calls.push({ method, params });
  };
  const factory: TestModule = (context) => {
    bus = context.bus;
    const module: GatewayModule = {
      name: 'operator-fake',
      snapshot: () => ({ approvals: pending.filter((a) => a.status === 'pending') }),
      handlers: {
        'chat.send': (params, caller) => {
          record('chat.send', params);
          const runId = `run-${calls.length}`;
          const messageId = params.idempotencyKey ?? runId;
          // As the gateway does: every client hears of an accepted message, the sender included.
          context.bus.emit('message.accepted', {
            sessionKey: params.sessionKey,
            messageId,
            text: params.text,
            channel: 'tui',
            clientId: caller.clientId,
            at: Date.now(),
          });
          written.push(
            {
              type: 'message',
              role: 'user',
              id: `u-${runId}`,
              parentId: null,
              timestamp: Date.now(),
              content: params.text,
              meta: { channel: 'tui', messageId },
            },
            {
              type: 'message',
              role: 'assistant',
              id: `a-${runId}`,
              parentId: null,
              timestamp: Date.now(),
              content: [{ type: 'text', text: `echo: ${params.text}` }],
            },
          );
          setImmediate(() => {
            context.bus.emit('chat', { runId, sessionKey: params.sessionKey, state: 'delta', delta: 'echo: ' });
            context.bus.emit('chat', { runId, sessionKey: params.sessionKey, state: 'final', text: `echo: ${params.text}`, entryId: `a-${runId}` });
          });
          return { runId, messageId: `m-${calls.length}`, idempotencyKey: params.idempotencyKey ?? 'k', status: 'started' as const };
        },
        'chat.abort': (params) => {
          record('chat.abort', params);
          return { aborted: false };
        },
        'approvals.list': () => ({ approvals: pending.filter((a) => a.status === 'pending') }),
        'approvals.resolve': (params, caller) => {
          record('approvals.resolve', params);
          const index = pending.findIndex((a) => a.id === params.id);
          const approval: ApprovalRecord = {
            ...pending[index]!,
            status: params.decision === 'deny' ? 'denied' : 'approved',
            decision: params.decision,
            resolvedBy: caller.clientId,
            resolvedAt: Date.now(),
          };
          pending.splice(index, 1);
          setImmediate(() => context.bus.emit('approval.resolved', { approval }));
          return { approval, ...(params.decision === 'always' ? { rule: approval.command } : {}) };
        },
        'commands.run': (params) => {
          record('commands.run', params);
          return { reply: `ran ${params.text}` };
        },
        'commands.list': async () => {
          listed += 1;
          const later = listed > 1 ? (options.laterCommands ?? []) : [];
          if (listed === 1) await options.holdFirstCommands;
          return { commands: [...baseCommands, ...later] };
        },
        'sessions.history': async (params) => {
          // The transcript is read when the request arrives; only the answer waits.
          const transcript = [...written];
          await options.holdHistory;
          const count = params.beforeId ? 0 : (options.history ?? 0);
          const older = Array.from({ length: count }, (_, i) => ({
            type: 'message' as const,
            role: 'user' as const,
            id: `h${i}`,
            parentId: null,
            timestamp: i,
            content: `history message ${i}`,
          }));
          return { sessionId: 's-1', hasMore: false, entries: params.beforeId ? [] : [...older, ...transcript] };
        },
      },
    };
    return module;
  };
  return { factory, calls, pending, bus: () => bus! };
}
