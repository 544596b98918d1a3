import type { SkillsPromptSnapshot, SkillsSource } from '../agent/index.js';
import { DEFAULT_AGENT_ID, type ClawConfig, type StatePaths } from '../config/index.js';
import { systemClock, type Clock } from '../config/index.js';
import type { ToolDefinition } from '../tools/index.js';
import { buildAgentSkills, describeChanges, type AgentSkills } from './agent-skills.js';
import { discoverSkillsSync, type FoundSkill, type SkillRoot } from './discovery.js';
import { skillRoots } from './roots.js';
import { skillCommands, type SkillCommandList } from './skill-commands.js';
import { createSkillTool } from './skill-tool.js';
import type { SkillsWatcher } from './watcher.js';

export interface SkillsServiceOptions {
  config: ClawConfig;
  paths: StatePaths;
  /** The workspace folder of an agent (the runtime's own rule). */
  workspaceDir(agentId: string): string;
  clock?: Clock;
  /** Environment for `requires.env` and the PATH for `requires.bins`; defaults to the process's. */
  env?: Readonly<Record<string, string | undefined>>;
  platform?: string;
  /** Home folder for `~/.agents/skills`. */
  home?: string;
  bundledDir?: string;
  onError?(error: unknown): void;
}

/** A refreshed snapshot that differs from the one before; `notice` is one line for a TUI. */
export interface SkillsChange {
  agentId: string;
  generation: number;
  changes: string[];
  notice: string;
}

/**
 * The skills of every agent: discovery, status, prompt block, the `skill`
 * tool, user commands and the watcher that keeps them current. Snapshots are
 * rebuilt only after a change on disk, so a turn reads a cached one.
 */
export class SkillsService implements SkillsSource {
  readonly #options: SkillsServiceOptions;
  readonly #clock: Clock;
  readonly #agents = new Map<string, AgentSkills>();
  readonly #listeners = new Set<(change: SkillsChange) => void>();
  #generation = 1;
  #watcher: SkillsWatcher | undefined;

  constructor(options: SkillsServiceOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  roots(agentId: string): SkillRoot[] {
    const { config, paths, home, bundledDir } = this.#options;
    return skillRoots({ config, paths, workspaceDir: this.#options.workspaceDir(agentId), ...(home ? { home } : {}), ...(bundledDir ? { bundledDir } : {}) });
  }

  /** Every skill of one agent with its status, as of the last change seen. */
  agent(agentId: string): AgentSkills {
    const cached = this.#agents.get(agentId);
    if (cached) return cached;
    const built = this.#build(agentId);
    this.#agents.set(agentId, built);
    return built;
  }

  snapshot(agentId: string): SkillsPromptSnapshot {
    return this.agent(agentId).prompt;
  }

  /** Skill folders the `read` tool may read for this agent (never write). */
  readRoots(agentId: string): string[] {
    return this.agent(agentId).ready.map((skill) => skill.dir);
  }

  /** `skills.entries.<name>.env` of the agent's ready skills, for its exec calls; secret values, never to be logged. */
  execEnv(agentId: string): Record<string, string> {
    const entries = this.#options.config.skills.entries;
    return Object.assign({}, ...this.agent(agentId).ready.map((skill) => entries[skill.name]?.env ?? {})) as Record<string, string>;
  }

  /** User-invocable skills as slash commands; names in `reserved` (built-in commands) are skipped with a reason. */
  commands(agentId: string, reserved: ReadonlySet<string> = new Set()): SkillCommandList {
    return skillCommands(this.agent(agentId).ready, reserved);
  }

  tool(): ToolDefinition {
    return createSkillTool((agentId) => this.agent(agentId)) as unknown as ToolDefinition;
  }

  onChange(listener: (change: SkillsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rebuilds every agent's snapshot from disk now and reports what changed. */
  refresh(): SkillsChange[] {
    this.#generation += 1;
    const changes: SkillsChange[] = [];
    for (const [agentId, before] of [...this.#agents]) {
      const after = this.#build(agentId);
      this.#agents.set(agentId, after);
      const lines = describeChanges(before, after);
      if (lines.length > 0)
        changes.push({ agentId, generation: after.generation, changes: lines, notice: `Skills changed (agent ${agentId}): ${lines.join('; ')}` });
    }
    for (const change of changes) for (const listener of this.#listeners) listener(change);
    return changes;
  }

  /**
   * Starts watching the roots (when skills.load.watch is on), then builds the
   * configured agents' snapshots: the daemon's Service.warm, once it listens.
   * A snapshot asked for sooner is built on demand.
   */
  async warm(): Promise<void> {
    const { config } = this.#options;
    const agentIds = new Set([DEFAULT_AGENT_ID, ...config.agents.list.map((agent) => agent.id)]);
    if (config.skills.load.watch && !this.#watcher) {
      const dirs = [...new Set([...agentIds].flatMap((agentId) => this.roots(agentId).map((root) => root.dir)))];
      // The watcher loads here, once the daemon listens, never on the way to ready.
      const { watchSkillRoots } = await import('./watcher.js');
      if (this.#watcher) return;
      const builtSooner = this.#agents.size > 0;
      this.#watcher = watchSkillRoots({
        dirs,
        debounceMs: config.skills.load.watchDebounceMs,
        clock: this.#clock,
        // A rebuild runs on a timer: a failure there must reach onError, never crash the daemon.
        onChange: () => {
          try {
            this.refresh();
          } catch (error) {
            this.#options.onError?.(error);
          }
        },
        onError: (error) => this.#options.onError?.(error),
      });
      await this.#watcher.ready;
      // A snapshot built on demand before the watch began may have missed a change.
      if (builtSooner) this.refresh();
    }
    for (const agentId of agentIds) this.agent(agentId);
  }

  async stop(): Promise<void> {
    const watcher = this.#watcher;
    this.#watcher = undefined;
    await watcher?.close();
  }

  #build(agentId: string): AgentSkills {
    const { config } = this.#options;
    const env = this.#options.env ?? process.env;
    const found: FoundSkill[] = discoverSkillsSync(this.roots(agentId));
    return buildAgentSkills({
      found,
      config,
      agentId,
      facts: { path: env.PATH ?? '', platform: this.#options.platform ?? process.platform, env },
      generation: this.#generation,
      maxPromptChars: config.skills.limits.maxPromptChars,
    });
  }
}
