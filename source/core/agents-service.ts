import { ensureWorkspaceSync } from '../agent/index.js';
import { agentWorkspaceDir, ConfigError, readRawConfig, writeRawConfig, type ClawConfig, type StatePaths } from '../config/index.js';
import { ClawError, type AgentInfo } from '../protocol/index.js';
import type { Providers } from '../providers/index.js';
import { defaultAgentId } from '../routing/index.js';
import type { ConfigStore } from './config-store.js';
import type { SessionsService } from './sessions-service.js';

export interface AddAgentInput {
  id: string;
  name?: string | undefined;
  workspace?: string | undefined;
  model?: string | undefined;
  default?: boolean | undefined;
}

type RawAgent = Record<string, unknown> & { id: string };

function rawAgents(raw: Record<string, unknown>): RawAgent[] {
  const agents = (raw.agents ?? {}) as Record<string, unknown>;
  return Array.isArray(agents.list) ? (agents.list as RawAgent[]) : [];
}

function withAgents(raw: Record<string, unknown>, list: RawAgent[], bindings?: unknown[]): Record<string, unknown> {
  const next: Record<string, unknown> = { ...raw, agents: { ...((raw.agents ?? {}) as Record<string, unknown>), list } };
  if (bindings) next.bindings = bindings;
  return next;
}

/**
 * `claw agents list|add|remove`: the agents of claw.json. A change is written
 * to the file (validated first) and applied through the config store at once,
 * so the new agent answers its next message without a restart; the file
 * watcher would see the same change, and applying it twice changes nothing.
 */
export class AgentsService {
  constructor(
    private readonly config: ConfigStore,
    private readonly paths: StatePaths,
    private readonly sessions: SessionsService,
    private readonly providers: Providers,
  ) {}

  list(): AgentInfo[] {
    const config = this.config.current;
    const ids = config.agents.list.length > 0 ? config.agents.list.map((agent) => agent.id) : [defaultAgentId(config)];
    return ids.map((id) => this.#info(config, id));
  }

  async add(input: AddAgentInput): Promise<AgentInfo> {
    const raw = this.#raw();
    const list = rawAgents(raw);
    if (list.some((agent) => agent.id === input.id) || (list.length === 0 && input.id === 'main')) {
      throw new ClawError('conflict', `Agent "${input.id}" already exists. \`claw agents list\` shows the agents; pick another id.`);
    }
    if (input.model) {
      try {
        this.providers.resolveModel(input.model);
      } catch (error) {
        throw new ClawError('bad_request', `${(error as Error).message} \`claw models list\` shows the models claw knows.`);
      }
    }
    // With no list the implicit `main` answers everything; listing the new agent alone would silently replace it.
    const kept = list.length === 0 ? [{ id: defaultAgentId(this.config.current) }] : list;
    const entry: RawAgent = {
      id: input.id,
      ...(input.name ? { name: input.name } : {}),
      ...(input.workspace ? { workspace: input.workspace } : {}),
      ...(input.model ? { model: input.model } : {}),
      ...(input.default ? { default: true } : {}),
    };
    const next = input.default ? [...kept.map(({ default: _old, ...rest }) => rest as RawAgent), entry] : [...kept, entry];
    const written = this.#write(withAgents(raw, next));
    ensureWorkspaceSync(agentWorkspaceDir(written, this.paths, input.id));
    await this.#apply();
    return this.#info(this.config.current, input.id);
  }

  async remove(id: string): Promise<{ removed: string; bindingsRemoved: number; workspace: string }> {
    const config = this.config.current;
    const raw = this.#raw();
    const list = rawAgents(raw);
    if (!list.some((agent) => agent.id === id)) {
      throw new ClawError('not_found', `No agent "${id}" in agents.list. \`claw agents list\` shows the agents.`);
    }
    if (defaultAgentId(config) === id) {
      throw new ClawError(
        'bad_request',
        `"${id}" is the default agent, which answers every message no binding claims. Make another one the default first (\`claw agents add NEW --default\`, or "default": true in claw.json).`,
      );
    }
    const bindings = Array.isArray(raw.bindings) ? (raw.bindings as Array<{ agentId?: unknown }>) : [];
    const keptBindings = bindings.filter((binding) => binding.agentId !== id);
    const workspace = agentWorkspaceDir(config, this.paths, id);
    this.#write(
      withAgents(
        raw,
        list.filter((agent) => agent.id !== id),
        keptBindings,
      ),
    );
    await this.#apply();
    return { removed: id, bindingsRemoved: bindings.length - keptBindings.length, workspace };
  }

  #info(config: ClawConfig, id: string): AgentInfo {
    const entry = config.agents.list.find((agent) => agent.id === id);
    const model = entry?.model ?? config.agents.defaults.model;
    return {
      id,
      ...(entry?.name ? { name: entry.name } : {}),
      default: defaultAgentId(config) === id,
      workspace: agentWorkspaceDir(config, this.paths, id),
      ...(model ? { model } : {}),
      bindings: config.bindings.filter((binding) => binding.agentId === id).length,
      sessions: this.sessions.registry.list(id).length,
    };
  }

  #raw(): Record<string, unknown> {
    try {
      return readRawConfig(this.paths.config);
    } catch (error) {
      throw new ClawError('unavailable', error instanceof ConfigError ? error.message : String(error));
    }
  }

  #write(raw: Record<string, unknown>): ClawConfig {
    try {
      return writeRawConfig(this.paths.config, raw);
    } catch (error) {
      throw new ClawError('bad_request', `${error instanceof Error ? error.message : String(error)}\nNothing was written.`);
    }
  }

  async #apply(): Promise<void> {
    const status = await this.config.reload();
    if (status.state === 'invalid') throw new ClawError('unavailable', `claw.json was written but could not be applied: ${status.error ?? 'invalid'}`);
  }
}
