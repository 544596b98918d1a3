import { DEFAULT_AGENT_ID } from '../config/index.js';
import { createToolsRuntime, policyLayers, type ToolsRuntime } from '../tools/index.js';
import type { GatewayModule, ModuleContext, ModuleFactory } from './module.js';

/** Agent id and session type of a session key (`agent:<id>:main`, `agent:<id>:<channel>:direct:<peer>`, `cron:<job>`, …). */
export function describeSessionKey(key: string): { agentId: string; sessionType: string } {
  const parts = key.split(':');
  if (parts[0] !== 'agent') return { agentId: DEFAULT_AGENT_ID, sessionType: parts[0] ?? 'main' };
  const agentId = parts[1] || DEFAULT_AGENT_ID;
  const rest = parts.slice(2);
  const sessionType = rest[0] === 'main' ? 'main' : rest[0] === 'subagent' ? 'subagent' : rest.find((p) => p === 'direct' || p === 'group') ?? 'main';
  return { agentId, sessionType };
}

export interface ApprovalsModuleOptions {
  /** Share one runtime with the agent module; by default the module builds its own. */
  runtime?: (context: ModuleContext) => ToolsRuntime;
}

/**
 * Serves approvals.list / approvals.resolve and the tools catalog, turns
 * inbox changes into approval events, and puts pending approvals in the
 * hello snapshot so a client that attaches later sees them.
 */
export function approvalsModule(options: ApprovalsModuleOptions = {}): ModuleFactory {
  return (context) => {
    const runtime = options.runtime?.(context) ?? createToolsRuntime({ config: context.config, paths: context.paths, now: context.now });
    const { inbox, registry } = runtime;
    const unsubscribe = inbox.on((event, approval) => context.bus.emit(event === 'requested' ? 'approval.requested' : 'approval.resolved', { approval }));
    const module: GatewayModule = {
      name: 'approvals',
      handlers: {
        'approvals.list': (params) => ({ approvals: inbox.list(params?.status ?? 'pending') }),
        'approvals.resolve': (params, caller) => inbox.resolve(params.id, params.decision, caller.clientId),
        'tools.catalog': () => ({
          tools: registry.list().map((tool) => ({ name: tool.name, group: tool.group, description: tool.description, risk: tool.risk, parameters: tool.parameters })),
        }),
        'tools.effective': (params) => {
          const { agentId, sessionType } = describeSessionKey(params.sessionKey);
          const scope = params.subagentRole ? { agentId, sessionType, subagentRole: params.subagentRole } : { agentId, sessionType };
          const decisions = registry.decisions(policyLayers(context.config.tools, scope));
          return {
            agentId,
            sessionType,
            tools: decisions.map((d) => ({ name: d.name, group: registry.get(d.name)?.group ?? 'unknown', allowed: d.allowed, reason: d.reason })),
          };
        },
      },
      snapshot: () => ({ approvals: inbox.list('pending') }),
      health: () => ({ ok: true, detail: `${inbox.list('pending').length} pending approvals` }),
      async close() {
        unsubscribe();
        await runtime.close();
      },
    };
    return module;
  };
}
