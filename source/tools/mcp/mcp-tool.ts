import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolError, toolOk, type JsonSchemaObject, type ToolContext, type ToolDefinition, type ToolResult } from '../types.js';
import { wrapUntrusted } from '../web/untrusted.js';
import { callResultText } from './call-result.js';
import { McpCallError, type McpConnection } from './connection.js';

/** Approvals answered "session" or "always" for MCP tools; lives as long as the manager. */
export class McpApprovalMemory {
  readonly #always = new Set<string>();
  readonly #perSession = new Set<string>();

  allows(toolName: string, sessionKey: string): boolean {
    return this.#always.has(toolName) || this.#perSession.has(`${sessionKey}\u0000${toolName}`);
  }

  remember(toolName: string, sessionKey: string, decision: string | undefined): void {
    if (decision === 'always') this.#always.add(toolName);
    if (decision === 'session') this.#perSession.add(`${sessionKey}\u0000${toolName}`);
  }
}

const looseArgs = z.record(z.string(), z.unknown());

/** Validates against the server's JSON Schema when zod can express it; the server validates again either way. */
function argsSchema(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch {
    return looseArgs;
  }
}

async function approved(name: string, mcpTool: string, connection: McpConnection, args: Record<string, unknown>, context: ToolContext, memory: McpApprovalMemory): Promise<ToolResult | undefined> {
  if (connection.config.trust === 'allow' || memory.allows(name, context.sessionKey)) return undefined;
  const outcome = await context.approvals.request(
    {
      kind: 'mcp',
      command: `${connection.name} ${mcpTool} ${JSON.stringify(args)}`,
      cwd: context.workspaceDir,
      envKeys: [],
      reason:
        `MCP server "${connection.name}" has trust "ask": calling its tool "${mcpTool}" needs an operator's approval. ` +
        '"session" allows this tool for the rest of the session, "always" until the gateway restarts (set trust "allow" in claw.json to make it permanent).',
    },
    context.signal,
  );
  if (outcome.approved) {
    memory.remember(name, context.sessionKey, outcome.decision);
    return undefined;
  }
  return toolError(`The call to ${name} was not approved (${outcome.status}). Do not retry it unless the user asks you to.`, { approvalId: outcome.id });
}

/** A registry tool that forwards to one MCP server's tool, gated by the server's trust. */
export function mcpToolDefinition(name: string, tool: Tool, connection: McpConnection, memory: McpApprovalMemory): ToolDefinition {
  const parameters = { ...tool.inputSchema, type: 'object' } as JsonSchemaObject;
  const summary = tool.description?.trim() || tool.title || tool.name;
  return {
    name,
    group: 'mcp',
    risk: connection.config.trust === 'allow' ? 'medium' : 'high',
    description: `[MCP server ${connection.name}] ${summary}`,
    parameters,
    input: argsSchema(parameters),
    async execute(args, context) {
      const refusal = await approved(name, tool.name, connection, args, context, memory);
      if (refusal) return refusal;
      try {
        const result = await connection.call(tool.name, args, context.signal);
        const body = wrapUntrusted(callResultText(result), { source: 'mcp', server: connection.name, tool: tool.name });
        return result.isError ? toolError(body, { server: connection.name }) : toolOk(body, { server: connection.name });
      } catch (error) {
        if (error instanceof McpCallError) return toolError(error.message, { server: connection.name });
        throw error;
      }
    },
  };
}
