import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import type { SubagentNode } from '../protocol/index.js';
import { defineTool, toolError, toolOk, type ToolDefinition, type ToolResult } from '../tools/index.js';
import type { SpawnAccepted, SpawnRequest } from './spawner.js';

/** What the tools need of the service (kept narrow so the tools read on their own). */
export interface SubagentsApi {
  spawn(request: SpawnRequest): Promise<SpawnAccepted>;
  list(parentKey?: string): SubagentNode[];
  cancel(id: string, callerKey?: string): { cancelled: boolean; node: SubagentNode };
  steer(id: string, message: string, callerKey?: string): Promise<{ node: SubagentNode; status: 'steered' | 'restarted' }>;
  yieldFor(parentKey: string, mode: 'all' | 'any'): { runIds: string[]; labels: string[] };
  readonly core: { clock: { now(): number } };
}

const spawnInput = lazySchema(() =>
  z.strictObject({
    task: z.string().min(1).max(20_000).describe('What the child should do, complete on its own: it does not see this conversation unless context is "fork".'),
    label: z.string().min(1).max(80).optional().describe('A short name shown in the sub-agent tree.'),
    agentId: z.string().min(1).optional().describe("Run the child as another configured agent; default this session's agent."),
    model: z.string().min(3).optional().describe('provider/model for the child; default the agent model.'),
    thinking: z.enum(['off', 'minimal', 'low', 'medium', 'high']).optional(),
    runTimeoutSeconds: z.number().int().min(1).max(86_400).optional().describe('Cancel the child after this long.'),
    mode: z.enum(['run', 'session']).optional().describe('"run" (default): one task. "session": the child stays and can be steered again after it reports.'),
    context: z.enum(['isolated', 'fork']).optional().describe('"isolated" (default): only the task. "fork": the recent conversation too.'),
    runtime: z.enum(['subagent', 'acp']).optional().describe('"acp": an external coding agent (with agent) does the task instead of a claw sub-agent.'),
    agent: z.string().min(1).optional().describe('The external agent for runtime "acp".'),
  }),
);

function describeNode(node: SubagentNode, now: number): Record<string, unknown> {
  return {
    runId: node.runId,
    sessionKey: node.key,
    label: node.label,
    status: node.status,
    elapsedSeconds: Math.round(((node.endedAt ?? now) - node.startedAt) / 1000),
    ...(node.tokens !== undefined ? { tokens: node.tokens } : {}),
    ...(node.lastTool ? { lastTool: node.lastTool } : {}),
    ...(node.delivery ? { delivery: node.delivery } : {}),
    ...(node.depth > 1 ? { parent: node.parentKey } : {}),
  };
}

async function guarded(action: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await action();
  } catch (error) {
    return toolError(error instanceof Error ? error.message : String(error));
  }
}

/** `sessions_spawn`, `subagents` and `sessions_yield`: how an agent splits work into children and collects it. */
export function subagentTools(api: SubagentsApi, acpAgents: readonly string[] = []): ToolDefinition[] {
  // The one rule for picking an external agent lives where the model reads about spawning.
  const acpRule =
    acpAgents.length > 0
      ? ` When the user asks for a task to be done in an external coding agent (e.g. "in Codex", "in Claude Code"), use runtime "acp" with agent set to one of: ${acpAgents.join(', ')}.`
      : '';
  const spawn = defineTool({
    name: 'sessions_spawn',
    group: 'sessions',
    risk: 'medium',
    description: `Start a sub-agent on a task in its own session; it runs in parallel and returns at once with its runId. Its final reply arrives later as a [subagent_result] message. Spawn several for independent parts, then call sessions_yield.${acpRule}`,
    input: spawnInput,
    execute: (args, context) =>
      guarded(async () => {
        const accepted = await api.spawn({ ...args, parentKey: context.sessionKey });
        return toolOk(JSON.stringify(accepted), { ...accepted });
      }),
  });
  const subagents = defineTool({
    name: 'subagents',
    group: 'sessions',
    risk: 'low',
    description: "List this session's sub-agents with their status, cancel one, or steer one with a message it reads at its next step.",
    input: lazySchema(() =>
      z.strictObject({
        action: z.enum(['list', 'cancel', 'steer']),
        id: z.string().min(1).optional().describe('runId or child session key (cancel, steer).'),
        message: z.string().min(1).max(20_000).optional().describe('What to tell the child (steer).'),
      }),
    ),
    execute: (args, context) =>
      guarded(async () => {
        const now = api.core.clock.now();
        if (args.action === 'list') {
          const nodes = api.list(context.sessionKey).map((node) => describeNode(node, now));
          return toolOk(nodes.length === 0 ? 'This session has no sub-agents.' : JSON.stringify({ children: nodes }, null, 2));
        }
        if (!args.id) return toolError(`"${args.action}" needs the child: {"action":"${args.action}","id":"<runId from list>"}.`);
        if (args.action === 'cancel') {
          const { cancelled, node } = api.cancel(args.id, context.sessionKey);
          return toolOk(cancelled ? `Cancelling "${node.label}"; its result will say cancelled.` : `"${node.label}" has already finished (${node.status}).`);
        }
        if (!args.message) return toolError('"steer" needs the message: {"action":"steer","id":"<runId>","message":"…"}.');
        const { node, status } = await api.steer(args.id, args.message, context.sessionKey);
        return toolOk(
          status === 'steered' ? `"${node.label}" gets the message at its next step.` : `"${node.label}" runs again with the message (run ${node.runId}).`,
        );
      }),
  });
  const yieldTool = defineTool({
    name: 'sessions_yield',
    group: 'sessions',
    risk: 'low',
    description:
      'End your turn and be woken when your running sub-agents report: "all" (default) brings every result together in one message; "any" wakes you at the first.',
    input: lazySchema(() => z.strictObject({ wait: z.enum(['all', 'any']).optional() })),
    execute: (args, context) =>
      guarded(async () => {
        const mode = args.wait ?? 'all';
        const { runIds, labels } = api.yieldFor(context.sessionKey, mode);
        return toolOk(
          `Waiting for ${mode === 'all' ? 'all of' : 'any of'} ${runIds.length} sub-agent(s): ${labels.map((l) => `"${l}"`).join(', ')}. End your turn now with a short note to the user; the results arrive as a new message.`,
          { runIds, mode },
        );
      }),
  });
  return [spawn, subagents, yieldTool] as unknown as ToolDefinition[];
}
