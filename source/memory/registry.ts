import type { ClawConfig, StatePaths } from '../config/index.js';
import { MemoryIndex } from './memory-index.js';
import type { MemoryGetParams, MemoryGetResult, MemorySearchParams, MemorySearchResult } from './types.js';

/**
 * One open index per (state dir, agent) in this process, shared by the
 * gateway module and the memory tools so there is one writer per file.
 */
const open = new Map<string, MemoryIndex>();

export function memoryIndexFor(options: { config: ClawConfig; paths: StatePaths; agentId: string }): MemoryIndex {
  const key = options.paths.memoryIndex(options.agentId);
  let index = open.get(key);
  if (!index) {
    index = new MemoryIndex(options);
    open.set(key, index);
  }
  return index;
}

/** Closes and forgets the shared index of one agent (gateway shutdown, tests). */
export async function closeMemoryIndex(paths: StatePaths, agentId: string): Promise<void> {
  const key = paths.memoryIndex(agentId);
  const index = open.get(key);
  open.delete(key);
  await index?.close();
}

/** `memory_search`: hybrid (or keyword-only, said in `warnings`) search of an agent's memory. */
export function searchMemory(options: { config: ClawConfig; paths: StatePaths; agentId: string }, params: MemorySearchParams): Promise<MemorySearchResult> {
  return memoryIndexFor(options).search(params);
}

/** `memory_get`: lines of a memory file; refuses anything outside the memory roots. */
export function getMemory(options: { config: ClawConfig; paths: StatePaths; agentId: string }, params: MemoryGetParams): MemoryGetResult {
  return memoryIndexFor(options).get(params);
}
