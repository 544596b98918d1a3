import type { ClawConfig, StatePaths } from '../config/index.js';
import { closeMemoryIndex, configuredAgentIds, memoryIndexFor, watchMemory, type MemoryIndex, type MemoryWatcher } from '../memory/index.js';
import { ClawError } from '../protocol/index.js';
import type { Logger } from './logger.js';
import type { Service, ServiceHealth } from './service.js';

/**
 * Long-term memory in the daemon: one index and one file watcher per agent,
 * with an initial sync in the background. Reloading the config re-opens the
 * indexes, so memory settings and new agents take effect without a restart.
 */
export class MemoryService implements Service {
  readonly name = 'memory';
  readonly #indexes = new Map<string, MemoryIndex>();
  #watchers: MemoryWatcher[] = [];

  constructor(
    private readonly config: ClawConfig,
    private readonly paths: StatePaths,
    private readonly log: Logger,
  ) {}

  start(): void {
    const { config, paths, log } = this;
    for (const agentId of config.memory.enabled ? configuredAgentIds(config) : []) {
      const index = memoryIndexFor({ config, paths, agentId });
      this.#indexes.set(agentId, index);
      this.#watchers.push(
        watchMemory(index, {
          debounceMs: config.memory.watchDebounceMs,
          onSynced: (stats) => {
            if (stats.filesChanged + stats.filesRemoved > 0) log.info('memory re-indexed', { agentId, ...stats });
          },
          onError: (error) => log.warn('memory watcher failed', { agentId, error: (error as Error).message }),
        }),
      );
      index.sync().then(
        (stats) => log.info('memory index ready', { agentId, ...stats }),
        (error: unknown) => log.error('memory index failed', { agentId, error: (error as Error).message }),
      );
    }
  }

  indexFor(agentId: string | undefined): MemoryIndex {
    const id = agentId ?? 'main';
    const index = this.#indexes.get(id);
    if (index) return index;
    if (!this.config.memory.enabled)
      throw new ClawError('unavailable', 'Memory is disabled (memory.enabled is false). Enable it with `claw config set memory.enabled true`.');
    throw new ClawError('not_found', `No agent "${id}". Known agents: ${[...this.#indexes.keys()].join(', ')}.`);
  }

  all(): MemoryIndex[] {
    return [...this.#indexes.values()];
  }

  health(): ServiceHealth {
    const problems = this.all().flatMap((index) => index.problems().map((text) => `${index.agentId}: ${text}`));
    return problems.length === 0 ? { ok: true } : { ok: false, detail: problems.join(' ') };
  }

  async reload(): Promise<void> {
    await this.stop();
    this.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#watchers.map((watcher) => watcher.close()));
    this.#watchers = [];
    await Promise.all([...this.#indexes.keys()].map((agentId) => closeMemoryIndex(this.paths, agentId)));
    this.#indexes.clear();
  }
}
