import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import { API_LIMITS, estimateTokens, type ToolSchema, type WireApi } from '../providers/index.js';
import { defineTool, toolError, toolOk, type ToolDefinition } from '../tools/index.js';

export const TOOL_SEARCH = 'tool_search';

/** Tool definitions may take at most this share of the context window before MCP tools are deferred. */
const WINDOW_SHARE = 0.1;
const MCP_PREFIX = 'mcp__';

export type DeferPolicy = 'auto' | 'always' | 'never';

export interface ToolSelection {
  sent: ToolSchema[];
  /** Waiting behind tool_search. */
  deferred: ToolSchema[];
  /** Tools that may not wait, past the API's count: not sent at all. */
  dropped: ToolSchema[];
  /** Deferred tools tool_search loaded for this session (sent now). */
  loaded: number;
}

export interface ToolLimits {
  api: WireApi;
  window: number;
  /** A server's `defer` setting, by its tool's name (`mcp__<server>__…`). */
  deferOf(toolName: string): DeferPolicy;
}

/**
 * Deferred tool loading: when every allowed tool would not fit a request
 * (more than the API takes, or more than a tenth of the window), the MCP
 * tools stay out of it and `tool_search` finds them; what it finds is
 * pinned for the session and sent from the next model call on.
 */
export class DeferredTools {
  readonly #pinned = new Map<string, Set<string>>();
  readonly #deferred = new Map<string, ToolSchema[]>();
  /** Tokens of a turn's tool list: estimated once per list, not at every model call of the turn. */
  readonly #costs = new WeakMap<readonly ToolSchema[], number>();

  #cost(tools: readonly ToolSchema[], api: WireApi): number {
    let cost = this.#costs.get(tools);
    if (cost === undefined) {
      cost = estimateTokens(JSON.stringify(tools), api);
      this.#costs.set(tools, cost);
    }
    return cost;
  }

  /**
   * What a model call sends, what waits behind tool_search, and what does
   * not fit at all (more tools that may not wait than the API takes: the
   * last are left out, and /context says which).
   */
  select(sessionKey: string, tools: readonly ToolSchema[], limits: ToolLimits): ToolSelection {
    // When some cannot be sent, the built-ins are the last to go: MCP tools after them.
    const listed = tools.filter((tool) => tool.name !== TOOL_SEARCH);
    const all = [...listed.filter((tool) => !tool.name.startsWith(MCP_PREFIX)), ...listed.filter((tool) => tool.name.startsWith(MCP_PREFIX))];
    const search = tools.find((tool) => tool.name === TOOL_SEARCH);
    const pinned = this.#pinned.get(sessionKey) ?? new Set<string>();
    const max = API_LIMITS[limits.api].maxTools;
    const policy = (tool: ToolSchema): DeferPolicy => (tool.name.startsWith(MCP_PREFIX) ? limits.deferOf(tool.name) : 'never');
    const overflows = all.length > max || this.#cost(tools, limits.api) > limits.window * WINDOW_SHARE;
    // Without tool_search (a policy denies it) nothing can be found again: `always` only defers what search can reach.
    const deferrable = (tool: ToolSchema): boolean =>
      !pinned.has(tool.name) && (policy(tool) === 'always' ? search !== undefined : overflows && policy(tool) === 'auto');
    const deferred = all.filter(deferrable);
    if (deferred.length === 0) {
      this.#deferred.delete(sessionKey);
      return { sent: all.slice(0, max), deferred: [], dropped: all.slice(max), loaded: 0 };
    }
    this.#deferred.set(sessionKey, deferred);
    const kept = all.filter((tool) => !deferrable(tool));
    const room = max - (search ? 1 : 0);
    const loaded = kept.filter((tool) => pinned.has(tool.name)).length;
    return { sent: [...kept.slice(0, room), ...(search ? [search] : [])], deferred, dropped: kept.slice(room), loaded };
  }

  /** The deferred tools that best match `query` by name and description; they are pinned for the session. */
  search(sessionKey: string, query: string, limit: number): ToolSchema[] {
    const words = query
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter(Boolean);
    const scored = (this.#deferred.get(sessionKey) ?? []).map((tool) => {
      const name = tool.name.toLowerCase();
      const text = `${name} ${tool.description.toLowerCase()}`;
      const score = words.reduce((sum, word) => sum + (name.includes(word) ? 3 : 0) + (text.includes(word) ? 1 : 0), 0);
      return { tool, score };
    });
    const found = scored
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((entry) => entry.tool);
    const pinned = this.#pinned.get(sessionKey) ?? new Set<string>();
    for (const tool of found) pinned.add(tool.name);
    this.#pinned.set(sessionKey, pinned);
    return found;
  }
}

/** The `tool_search` tool over one runtime's deferred tools. */
export function toolSearchTool(deferred: DeferredTools): ToolDefinition {
  return defineTool({
    name: TOOL_SEARCH,
    group: 'mcp',
    risk: 'low',
    description:
      'Find tools of the connected MCP servers that are not loaded yet (there are too many to send every time). Search by what you want to do; the tools found can be called from your next step on.',
    input: lazySchema(() =>
      z.strictObject({
        query: z.string().min(1).max(500).describe('What the tool should do, or part of its name.'),
        limit: z.number().int().min(1).max(20).optional().describe('Most tools to load (default 5).'),
      }),
    ),
    async execute(args, context) {
      const found = deferred.search(context.sessionKey, args.query, args.limit ?? 5);
      if (found.length === 0) return toolError(`No deferred tool matches "${args.query}". Try other words, or the server's name.`);
      const listed = found.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n');
      return toolOk(`Loaded ${found.length} tool(s); call them from your next step:\n${listed}`, { loaded: found.map((tool) => tool.name) });
    },
  }) as unknown as ToolDefinition;
}
