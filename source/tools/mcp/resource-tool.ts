import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { toolError, toolOk, type ToolContext, type ToolDefinition } from '../types.js';
import { wrapUntrusted } from '../web/untrusted.js';
import type { McpApprovalMemory, McpApprovalPlan } from './approval-rules.js';
import { McpCallError, type McpConnection } from './connection.js';

/**
 * One tool for every server's resources rather than one per server: the
 * model's tool list stays the same size however many servers there are, and a
 * `resource_link` from any tool result names exactly the two arguments it needs.
 */
export const RESOURCE_TOOL_NAME = 'mcp_resource';

/** The approval plan's tool name for resource reads, so "always" can allow them per server. */
export const RESOURCE_READ = 'resources/read';

const MAX_LISTED = 200;

const input = lazySchema(() =>
  z.strictObject({
    server: z.string().min(1).optional(),
    uri: z.string().min(1).optional(),
  }),
);

export interface ResourceServers {
  connections(): McpConnection[];
}

/** A resource's contents as the model (or an `@server:uri` mention) reads them. */
export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((content) =>
      'text' in content
        ? content.text
        : `[${content.uri}: binary ${content.mimeType ?? 'data'}, ${Math.floor((content.blob.length * 3) / 4)} bytes, not shown]`,
    )
    .join('\n\n');
}

function listing(servers: McpConnection[]): string {
  const lines: string[] = [];
  for (const connection of servers) {
    const { resources, templates } = connection.catalog;
    if (resources.length === 0 && templates.length === 0) continue;
    lines.push(`server ${connection.name}:`);
    for (const resource of resources.slice(0, MAX_LISTED))
      lines.push(
        `  ${resource.uri}  ${resource.title ?? resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}${resource.description ? ` - ${resource.description}` : ''}`,
      );
    if (resources.length > MAX_LISTED) lines.push(`  … ${resources.length - MAX_LISTED} more`);
    for (const template of templates)
      lines.push(`  template ${template.uriTemplate}  ${template.title ?? template.name}${template.description ? ` - ${template.description}` : ''}`);
  }
  return lines.length > 0 ? lines.join('\n') : 'No connected MCP server offers resources.';
}

async function approvedRead(connection: McpConnection, uri: string, context: ToolContext, memory: McpApprovalMemory): Promise<string | undefined> {
  const plan: McpApprovalPlan = { server: connection.name, tool: RESOURCE_READ };
  if (connection.config.trust === 'allow' || memory.allows(context.agentId, context.sessionKey, plan)) return undefined;
  const outcome = await context.approvals.request(
    {
      kind: 'mcp',
      command: `${connection.name} ${RESOURCE_READ} ${uri}`,
      plan,
      cwd: context.workspaceDir,
      envKeys: [],
      reason: `MCP server "${connection.name}" has trust "ask": reading its resource ${uri} needs an operator's approval ("always" allows every resource read from this server for this agent).`,
    },
    context.signal,
  );
  if (outcome.approved) {
    memory.remember(context.agentId, context.sessionKey, plan, outcome.decision);
    return undefined;
  }
  return `Reading ${uri} was not approved (${outcome.status}). Do not retry it unless the user asks you to.`;
}

/** `mcp_resource {}` lists resources and templates; `{server, uri}` reads one (templates filled in by the model). */
export function resourceToolDefinition(servers: ResourceServers, memory: McpApprovalMemory): ToolDefinition<z.infer<typeof input>> {
  return {
    name: RESOURCE_TOOL_NAME,
    group: 'mcp',
    risk: 'medium',
    description:
      'Resources of the connected MCP servers. Without arguments (or with only "server") lists them and their URI templates; with "server" and "uri" reads one. ' +
      'Use it to open a resource link from an MCP tool result.',
    parameters: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'MCP server name, as in claw.json' },
        uri: { type: 'string', description: 'Resource URI to read (a listed one, or a template with its variables filled in)' },
      },
      additionalProperties: false,
    },
    input,
    async execute(args, context) {
      const all = servers.connections();
      const connection = args.server === undefined ? undefined : all.find((c) => c.name === args.server);
      if (args.server !== undefined && !connection) {
        return toolError(`No MCP server named "${args.server}". Servers: ${all.map((c) => c.name).join(', ') || 'none configured'}.`);
      }
      if (args.uri === undefined) return toolOk(listing(connection ? [connection] : all.filter((c) => c.ready)));
      if (!connection) return toolError('Reading a resource needs "server" as well as "uri".');
      if (!connection.ready) return toolError(connection.notReadyReason(), { server: connection.name });
      const refusal = await approvedRead(connection, args.uri, context, memory);
      if (refusal) return toolError(refusal, { server: connection.name });
      try {
        const result = await connection.readResource(args.uri);
        return toolOk(wrapUntrusted(resourceText(result), { source: 'mcp', server: connection.name, resource: args.uri }), {
          server: connection.name,
          uri: args.uri,
        });
      } catch (error) {
        if (error instanceof McpCallError) return toolError(error.message, { server: connection.name });
        throw error;
      }
    },
  };
}
