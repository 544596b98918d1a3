import type { Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { withoutFormats } from '../schema-keys.js';
import { toolError, toolOk, type JsonSchemaObject, type ToolContext, type ToolDefinition, type ToolResult } from '../types.js';
import { wrapUntrusted } from '../web/untrusted.js';
import type { McpApprovalMemory, McpApprovalPlan } from './approval-rules.js';
import { callResult } from './call-result.js';
import { McpCallError, type McpConnection } from './connection.js';

const looseArgs = lazySchema(() => z.record(z.string(), z.unknown()));

/** Validates against the server's JSON Schema when zod can express it; the server validates again either way. */
function argsSchema(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(withoutFormats(schema) as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch {
    return looseArgs;
  }
}

/** `progress 3/10: indexing` — what the running tool line shows. */
export function describeProgress(progress: Progress): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return `progress ${amount}${progress.message ? `: ${progress.message}` : ''}`;
}

async function approved(
  name: string,
  plan: McpApprovalPlan,
  connection: McpConnection,
  args: Record<string, unknown>,
  context: ToolContext,
  memory: McpApprovalMemory,
): Promise<ToolResult | undefined> {
  if (connection.config.trust === 'allow' || memory.allows(context.agentId, context.sessionKey, plan)) return undefined;
  const outcome = await context.approvals.request(
    {
      kind: 'mcp',
      command: `${connection.name} ${plan.tool} ${JSON.stringify(args)}`,
      plan,
      cwd: context.workspaceDir,
      envKeys: [],
      reason:
        `MCP server "${connection.name}" has trust "ask": calling its tool "${plan.tool}" needs an operator's approval. ` +
        '"session" allows this tool for the rest of the session, "always" for this agent from now on (kept in mcp-approvals.json).',
    },
    context.signal,
  );
  if (outcome.approved) {
    memory.remember(context.agentId, context.sessionKey, plan, outcome.decision);
    return undefined;
  }
  return toolError(`The call to ${name} was not approved (${outcome.status}). Do not retry it unless the user asks you to.`, { approvalId: outcome.id });
}

/** A registry tool that forwards to one MCP server's tool, gated by the server's trust. */
export function mcpToolDefinition(name: string, tool: Tool, connection: McpConnection, memory: McpApprovalMemory): ToolDefinition {
  const parameters = { ...tool.inputSchema, type: 'object' } as JsonSchemaObject;
  const summary = tool.description?.trim() || tool.title || tool.name;
  const plan: McpApprovalPlan = { server: connection.name, tool: tool.name };
  return {
    name,
    group: 'mcp',
    risk: connection.config.trust === 'allow' ? 'medium' : 'high',
    description: `[MCP server ${connection.name}] ${summary}`,
    parameters,
    input: argsSchema(parameters),
    async execute(args, context) {
      // Asking an operator to approve a call that cannot be made would waste their answer.
      if (!connection.ready) return toolError(connection.notReadyReason(), { server: connection.name });
      const refusal = await approved(name, plan, connection, args, context, memory);
      if (refusal) return refusal;
      try {
        const result = await connection.call(tool.name, args, {
          signal: context.signal,
          onProgress: (progress) => context.onUpdate(describeProgress(progress)),
        });
        const { text, media } = callResult(result, connection.name);
        const body = wrapUntrusted(text, { source: 'mcp', server: connection.name, tool: tool.name });
        const outcome = result.isError ? toolError(body, { server: connection.name }) : toolOk(body, { server: connection.name });
        return media.length > 0 ? { ...outcome, media } : outcome;
      } catch (error) {
        if (error instanceof McpCallError) return toolError(error.message, { server: connection.name });
        throw error;
      }
    },
  };
}
