import type { ApprovalRecord } from '../../../source/protocol/index.js';
import type { EventBus } from '../../../source/core/index.js';
import type { GatewayModule, ModuleFactory } from '../../../source/gateway/index.js';

export interface OperatorFake {
  factory: ModuleFactory;
  calls: Array<{ method: string; params: unknown }>;
  bus(): EventBus;
  pending: ApprovalRecord[];
}

/**
 * A gateway module for TUI tests, served over the real socket: it records the
 * operator RPCs (chat.send, approvals.resolve, commands.run) and answers them
 * the way the protocol says, so the TUI can be driven without a model.
 */
export function operatorFake(options: { pending?: ApprovalRecord[]; history?: number } = {}): OperatorFake {
  const calls: OperatorFake['calls'] = [];
  let bus: EventBus | undefined;
  const pending = [...(options.pending ?? [])];
  const record = (method: string, params: unknown) => {
    calls.push({ method, params });
  };
  const factory: ModuleFactory = (context) => {
    bus = context.bus;
    const module: GatewayModule = {
      name: 'operator-fake',
      snapshot: () => ({ approvals: pending.filter((a) => a.status === 'pending') }),
      handlers: {
        'chat.send': (params, caller) => {
          record('chat.send', params);
          const runId = `run-${calls.length}`;
          // As the gateway does: every client hears of an accepted message, the sender included.
          context.bus.emit('message.accepted', {
            sessionKey: params.sessionKey,
            messageId: params.idempotencyKey ?? runId,
            text: params.text,
            channel: 'tui',
            clientId: caller.clientId,
            at: Date.now(),
          });
          setImmediate(() => {
            context.bus.emit('chat', { runId, sessionKey: params.sessionKey, state: 'delta', delta: 'echo: ' });
            context.bus.emit('chat', { runId, sessionKey: params.sessionKey, state: 'final', text: `echo: ${params.text}` });
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
        'commands.list': () => ({
          commands: [
            { name: 'usage', aliases: [], args: '', description: 'token usage' },
            { name: 'status', aliases: [], args: '', description: 'Gateway and session status' },
            {
              name: 'think',
              aliases: [],
              args: '[level]',
              description: 'thinking level',
              arguments: [{ name: 'level', required: false, values: [{ value: 'low' }, { value: 'high' }] }],
            },
          ],
        }),
        'sessions.history': (params) => {
          const count = options.history ?? 0;
          return {
            sessionId: 's-1',
            hasMore: false,
            entries: Array.from({ length: params.beforeId ? 0 : count }, (_, i) => ({
              type: 'message' as const,
              role: 'user' as const,
              id: `h${i}`,
              parentId: null,
              timestamp: i,
              content: `history message ${i}`,
            })),
          };
        },
      },
    };
    return module;
  };
  return { factory, calls, pending, bus: () => bus! };
}
