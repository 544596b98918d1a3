import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configSchema, type ClawConfig } from '../../source/config/index.js';
import { MemoryIndex, type MemoryIndexOptions } from '../../source/memory/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

export interface MemoryFixture {
  state: TempState;
  config: ClawConfig;
  workspace: string;
  write(relPath: string, text: string): string;
  remove(relPath: string): void;
  open(options?: Partial<MemoryIndexOptions>): MemoryIndex;
  cleanup(): Promise<void>;
}

/** A fresh state dir with an agent workspace and a config built from `memory` overrides. */
export function memoryFixture(memory: Record<string, unknown> = {}): MemoryFixture {
  const state = makeTempState('claw-memory-');
  const config = configSchema.parse({ memory });
  const workspace = state.paths.workspace('main');
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  const opened: MemoryIndex[] = [];
  return {
    state,
    config,
    workspace,
    write(relPath, text) {
      const path = join(workspace, relPath);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    remove(relPath) {
      rmSync(join(workspace, relPath), { force: true });
    },
    open(options = {}) {
      const index = new MemoryIndex({ agentId: 'main', config, paths: state.paths, provider: null, ...options });
      opened.push(index);
      return index;
    },
    async cleanup() {
      for (const index of opened) await index.close();
      state.cleanup();
    },
  };
}

/** Memory config pointing at a fake embeddings server, with fast retries. */
export function embeddingsConfig(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { embeddings: { provider: 'openai', baseUrl, model: 'fake-embed', batchSize: 16, timeoutMs: 2000, maxRetries: 2 }, ...extra };
}

/** Polls `check` until it holds; generous, because CI machines are busy. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
