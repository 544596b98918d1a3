import type { Core } from '../../core/index.js';
import { parseSessionKey } from '../../routing/index.js';
import { policyLayers } from '../../tools/index.js';
import type { HandlerTable } from '../module.js';

/** memory.*, mcp.*, approvals.* and tools.*: thin adapters over the core services. */
export function servicesRpc(core: Core): HandlerTable {
  const { memory, tools } = core;
  const { inbox, registry } = tools;
  return {
    'memory.status': (params) => ({
      agents: params?.agentId ? [memory.indexFor(params.agentId).status()] : memory.all().map((index) => index.status()),
    }),
    'memory.search': ({ agentId, ...search }) => memory.indexFor(agentId).search(search),
    'memory.reindex': async (params) => {
      const index = memory.indexFor(params?.agentId);
      const stats = await index.sync({ force: params?.force ?? false, retryEmbeddings: true });
      return { agentId: index.agentId, stats, status: index.status() };
    },
    'approvals.list': (params) => ({ approvals: inbox.list(params?.status ?? 'pending') }),
    'approvals.resolve': (params, caller) => inbox.resolve(params.id, params.decision, caller.clientId),
    'tools.catalog': () => ({
      tools: registry
        .list()
        .map((tool) => ({ name: tool.name, group: tool.group, description: tool.description, risk: tool.risk, parameters: tool.parameters })),
    }),
    'tools.effective': (params) => {
      const parsed = parseSessionKey(params.sessionKey);
      const agentId = parsed?.agentId ?? 'main';
      const sessionType = parsed?.kind ?? 'main';
      const scope = params.subagentRole ? { agentId, sessionType, subagentRole: params.subagentRole } : { agentId, sessionType };
      const agentLayer = core.config.current.agents.list.find((agent) => agent.id === agentId)?.tools;
      const decisions = registry.decisions(policyLayers(core.config.current.tools, scope, agentLayer));
      return {
        agentId,
        sessionType,
        tools: decisions.map((d) => ({ name: d.name, group: registry.get(d.name)?.group ?? 'unknown', allowed: d.allowed, reason: d.reason })),
      };
    },
  };
}
