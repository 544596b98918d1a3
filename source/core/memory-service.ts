import type { Logger } from '../config/index.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentWorkspaceDir, type ClawConfig, type StatePaths } from '../config/index.js';
import { closeMemoryIndex, configuredAgentIds, memoryIndexFor, watchMemory, type MemoryIndex, type MemoryWatcher } from '../memory/index.js';
import { ClawError } from '../protocol/index.js';
import type { Service, ServiceHealth } from './service.js';

/**
 * Long-term memory in the daemon: one index and one file watcher per agent,
 * opened at first use (or once the gateway listens, with embeddings), with an
 * initial sync in the background. Reloading the config re-opens the indexes,
 * so memory settings and new agents take effect without a restart.
 */
export class MemoryService implements Service {
  readonly name = 'memory';
  readonly #indexes = new Map<string, MemoryIndex>();
  #watchers: MemoryWatcher[] = [];
  #started = false;

  constructor(
    private readonly config: ClawConfig,
    private readonly paths: StatePaths,
    private readonly log: Logger,
  ) {}

  /** Opening an index loads SQLite and scans the memory files: it waits for warm() or the first use. */
  start(): void {
    this.#started = true;
  }

  /**
   * With embeddings, the files are embedded ahead of the first search; without,
   * an index opens at first use (its first search syncs) and costs nothing
   * until then: SQLite alone is ~4 MB of the idle daemon.
   */
  warm(): void {
    for (const agentId of this.#agentIds()) {
      if (this.config.memory.embeddings.provider !== 'none') this.#open(agentId);
      // Where notes go exists from the start, as it did when every index opened here.
      else mkdirSync(join(agentWorkspaceDir(this.config, this.paths, agentId), 'memory'), { recursive: true });
    }
  }

  indexFor(agentId: string | undefined): MemoryIndex {
    const id = agentId ?? 'main';
    if (this.#agentIds().includes(id)) return this.#open(id);
    if (!this.config.memory.enabled)
      throw new ClawError('unavailable', 'Memory is disabled (memory.enabled is false). Enable it with `claw config set memory.enabled true`.');
    throw new ClawError('not_found', `No agent "${id}". Known agents: ${this.#agentIds().join(', ')}.`);
  }

  #agentIds(): string[] {
    return this.config.memory.enabled && this.#started ? configuredAgentIds(this.config) : [];
  }

  #open(agentId: string): MemoryIndex {
    const open = this.#indexes.get(agentId);
    if (open) return open;
    const { config, paths, log } = this;
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
    return index;
  }

  all(): MemoryIndex[] {
    return this.#agentIds().map((agentId) => this.#open(agentId));
  }

  /** Of the indexes opened so far: a health check must not open one. */
  health(): ServiceHealth {
    const problems = [...this.#indexes.values()].flatMap((index) => index.problems().map((text) => `${index.agentId}: ${text}`));
    return problems.length === 0 ? { ok: true } : { ok: false, detail: problems.join(' ') };
  }

  async reload(): Promise<void> {
    await this.stop();
    this.start();
    this.warm();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#watchers.map((watcher) => watcher.close()));
    this.#watchers = [];
    await Promise.all([...this.#indexes.keys()].map((agentId) => closeMemoryIndex(this.paths, agentId)));
    this.#indexes.clear();
    this.#started = false;
  }
}
