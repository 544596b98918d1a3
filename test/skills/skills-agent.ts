import { randomUUID } from 'node:crypto';
import { AgentRuntime, CommandRegistry, type TurnEvents, type TurnOutcome } from '../../source/agent/index.js';
import { loadConfig, writeRawConfig, systemClock } from '../../source/config/index.js';
import { sessionAdapter } from '../../source/core/index.js';
import { createProviders } from '../../source/providers/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { SkillsService } from '../../source/skills/index.js';
import { createFsTools, ToolRegistry, type ApprovalGate, type ToolDefinition } from '../../source/tools/index.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import type { SkillsEnv } from './skill-fixtures.js';

export const KEY = 'agent:main:main';

const refusingGate: ApprovalGate = {
  async request() {
    throw new Error('unexpected approval request in a skills test');
  },
  approvedForSession: () => false,
};

const quietEvents: TurnEvents = { chat: () => undefined, agent: () => undefined, context: () => undefined };

export interface SkillsAgent {
  runtime: AgentRuntime;
  skills: SkillsService;
  sessions: SessionRegistry;
  turn(text: string): Promise<TurnOutcome>;
  /** Runs a slash command through the real registry with the real /context handler. */
  command(text: string): Promise<{ reply: string; data?: unknown }>;
}

/**
 * The real agent runtime, sessions on disk, the fs tools with skill folders as
 * read roots, the skill tool and a fake OpenAI-compatible model.
 */
export function startSkillsAgent(env: SkillsEnv, llm: FakeLlmServer, raw: Record<string, unknown> = {}, extraTools: ToolDefinition[] = []): SkillsAgent {
  writeRawConfig(env.state.paths.config, {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
    agents: { defaults: { model: 'fake/m' } },
    ...raw,
  });
  const config = loadConfig(env.state.paths.config);
  const skills = new SkillsService({
    config,
    paths: env.state.paths,
    workspaceDir: (agentId) => env.state.paths.workspace(agentId),
    home: env.home,
    bundledDir: env.bundled,
    env: { PATH: process.env.PATH ?? '' },
  });
  const registry = new ToolRegistry();
  for (const tool of createFsTools({ roots: [], maxReadBytes: 1_000_000, readRoots: (agentId) => skills.readRoots(agentId) }))
    registry.register(tool as unknown as ToolDefinition);
  registry.register(skills.tool());
  for (const tool of extraTools) registry.register(tool);
  const providers = createProviders({ config, paths: env.state.paths, env: {} });
  const runtime = new AgentRuntime({ config, paths: env.state.paths, providers, registry, approvals: () => refusingGate, clock: systemClock, skills });
  const sessions = new SessionRegistry({ paths: env.state.paths, config });
  const commands = new CommandRegistry();
  return {
    runtime,
    skills,
    sessions,
    async turn(text) {
      const session = sessionAdapter(await sessions.open(KEY));
      return runtime.runTurn({ runId: randomUUID(), session, messages: [{ text }], signal: new AbortController().signal }, quietEvents);
    },
    async command(text) {
      const unused = async (): Promise<never> => {
        throw new Error('not used by this command');
      };
      return commands.run(text, {
        sessionKey: KEY,
        providers,
        host: {
          session: unused,
          patch: unused,
          newSession: unused,
          reset: unused,
          abort: unused,
          retry: unused,
          turnSession: async (key) => sessionAdapter(await sessions.open(key)),
        },
        resolveModel: (session) => runtime.resolveModel(session),
        resolveThinking: (session) => runtime.resolveThinking(session),
        runShell: (session, command) => runtime.runShell(session, command),
        lastError: (key) => runtime.lastError(key),
        contextWindow: (session, runId) => runtime.contextWindow(session, quietEvents, runId),
        contextReport: (session) => runtime.contextReport(session),
      });
    },
  };
}
