import { ClawError } from '../protocol/index.js';
import { closeMemoryIndex, configuredAgentIds, memoryIndexFor, watchMemory, type MemoryIndex, type MemoryWatcher } from '../memory/index.js';
import type { GatewayModule, ModuleFactory } from './module.js';

/**
 * Long-term memory in the daemon: one index and one file watcher per agent,
 * an initial sync in the background, and the memory.* RPC methods.
 */
export const memoryModule: ModuleFactory = ({ config, paths, log }) => {
  const agentIds = config.memory.enabled ? configuredAgentIds(config) : [];
  const indexes = new Map<string, MemoryIndex>();
  const watchers: MemoryWatcher[] = [];
  for (const agentId of agentIds) {
    const index = memoryIndexFor({ config, paths, agentId });
    indexes.set(agentId, index);
    watchers.push(watchMemory(index, {
      debounceMs: config.memory.watchDebounceMs,
      onSynced: (stats) => { if (stats.filesChanged + stats.filesRemoved > 0) log.info('memory re-indexed', { agentId, ...stats }); },
      onError: (error) => log.warn('memory watcher failed', { agentId, error: (error as Error).message }),
    }));
    index.sync().then(
      (stats) => log.info('memory index ready', { agentId, ...stats }),
      (error: unknown) => log.error('memory index failed', { agentId, error: (error as Error).message }),
    );
  }

  const indexFor = (agentId: string | undefined): MemoryIndex => {
    const id = agentId ?? 'main';
    const index = indexes.get(id);
    if (index) return index;
    if (!config.memory.enabled) throw new ClawError('unavailable', 'Memory is disabled (memory.enabled is false). Enable it with `claw config set memory.enabled true` and restart the gateway.');
    throw new ClawError('not_found', `No agent "${id}". Known agents: ${[...indexes.keys()].join(', ')}.`);
  };

  const module: GatewayModule = {
    name: 'memory',
    handlers: {
      'memory.status': (params) => ({
        agents: params?.agentId ? [indexFor(params.agentId).status()] : [...indexes.values()].map((index) => index.status()),
      }),
      'memory.search': (params) => {
        const { query, maxResults, minScore } = params;
        return indexFor(params.agentId).search({ query, ...(maxResults !== undefined ? { maxResults } : {}), ...(minScore !== undefined ? { minScore } : {}) });
      },
      'memory.reindex': async (params) => {
        const index = indexFor(params?.agentId);
        const stats = await index.sync({ force: params?.force ?? false, retryEmbeddings: true });
        return { agentId: index.agentId, stats, status: index.status() };
      },
    },
    health() {
      const problems = [...indexes.values()].flatMap((index) => index.problems().map((text) => `${index.agentId}: ${text}`));
      return problems.length === 0 ? { ok: true } : { ok: false, detail: problems.join(' ') };
    },
    async close() {
      await Promise.all(watchers.map((watcher) => watcher.close()));
      await Promise.all([...indexes.keys()].map((agentId) => closeMemoryIndex(paths, agentId)));
    },
  };
  return module;
};
