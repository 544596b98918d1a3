import { z } from 'zod';
import type { ClawConfig, StatePaths } from '../config/index.js';
import { memoryIndexFor, type MemoryIndex } from '../memory/index.js';
import { ClawError, lazySchema } from '../protocol/index.js';
import { defineTool } from './define-tool.js';
import { toolError, toolOk } from './types.js';

export interface MemoryToolOptions {
  config: ClawConfig;
  paths: StatePaths;
  /** Where an agent's index comes from; the daemon's memory service opens it with its watcher. */
  index?: (agentId: string) => MemoryIndex;
}

/**
 * `memory_search` and `memory_get` (group `memory`) over the calling agent's
 * memory index, shared with the gateway's memory module in this process.
 */
export function createMemoryTools(options: MemoryToolOptions) {
  const index = options.index ?? ((agentId: string) => memoryIndexFor({ config: options.config, paths: options.paths, agentId }));
  const memory_search = defineTool({
    name: 'memory_search',
    group: 'memory',
    risk: 'low',
    description:
      'Search long-term memory (MEMORY.md, memory/*.md and extra notes) before answering about prior work, decisions, dates, people, preferences or todos. Returns path, line range, score and a snippet; read more with memory_get.',
    input: lazySchema(() =>
      z.strictObject({
        query: z.string().min(1).max(2000),
        maxResults: z.number().int().min(1).max(50).optional(),
        minScore: z.number().min(0).max(1).optional(),
      }),
    ),
    async execute(args, context) {
      const result = await index(context.agentId).search(args);
      return toolOk(JSON.stringify(result, null, 2), { mode: result.mode, count: result.results.length, warnings: result.warnings });
    },
  });

  const memory_get = defineTool({
    name: 'memory_get',
    group: 'memory',
    risk: 'low',
    description: 'Read lines of a memory file found by memory_search (path as returned; from is 1-based; lines defaults to the rest, at most 400).',
    input: lazySchema(() =>
      z.strictObject({
        path: z.string().min(1),
        from: z.number().int().min(1).optional(),
        lines: z.number().int().min(1).max(400).optional(),
      }),
    ),
    async execute(args, context) {
      try {
        const result = index(context.agentId).get(args);
        return toolOk(`${result.path} lines ${result.from}-${result.to} of ${result.totalLines}:\n${result.text}`, {
          path: result.path,
          from: result.from,
          to: result.to,
          totalLines: result.totalLines,
        });
      } catch (error) {
        if (error instanceof ClawError) return toolError(error.message);
        throw error;
      }
    },
  });

  return [memory_search, memory_get];
}
