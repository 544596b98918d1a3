import type { Core } from '../../core/index.js';
import { ClawError } from '../../protocol/index.js';
import { McpCallError } from '../../tools/index.js';
import type { HandlerTable } from '../module.js';

/** MCP failures a client can act on become clear request errors instead of internal ones. */
async function asRequest<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpCallError) throw new ClawError('bad_request', error.message);
    throw error;
  }
}

/** mcp.*: servers, logs, prompts, resources and server questions. */
export function mcpRpc(core: Core): HandlerTable {
  const { manager, elicitations } = core.mcp;
  return {
    'mcp.list': () => ({ servers: manager.status() }),
    'mcp.logs': (params) => asRequest(() => ({ server: params.server, lines: manager.logs(params.server) })),
    'mcp.prompts.list': (params) => asRequest(() => ({ prompts: manager.prompts(params?.server) })),
    'mcp.prompts.get': (params) => asRequest(() => manager.getPrompt(params.server, params.prompt, params.arguments)),
    'mcp.prompts.complete': (params) =>
      asRequest(async () => ({ values: await manager.completePrompt(params.server, params.prompt, params.argument, params.value, params.context) })),
    'mcp.resources.list': (params) => asRequest(() => manager.resources(params?.server)),
    'mcp.resources.read': (params) => asRequest(() => manager.readResource(params.server, params.uri)),
    'mcp.login': (params) =>
      asRequest(async () => {
        const { status, url } = await manager.login(params.name, params.callbackUrl);
        return { server: status, ...(url ? { url } : {}) };
      }),
    'mcp.logout': (params) =>
      asRequest(async () => {
        const { removed, status } = await manager.logout(params.name);
        return { removed, server: status };
      }),
    'mcp.elicitation.list': () => ({ elicitations: elicitations.pending() }),
    'mcp.elicitation.respond': (params, caller) => {
      try {
        const answer = params.content ? { action: params.action, content: params.content } : { action: params.action };
        return { elicitation: elicitations.respond(params.id, answer, caller.clientId) };
      } catch (error) {
        throw new ClawError('bad_request', error instanceof Error ? error.message : String(error));
      }
    },
  };
}
