import type { ClawConfig, StatePaths } from '../config/index.js';
import { MemoryIndex } from './memory-index.js';

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
