import { existsSync, statSync } from 'node:fs';
import type { ClawConfig, StatePaths } from '../config/index.js';
import { EmbeddingError, type EmbeddingProvider } from './embeddings.js';
import { MemoryIndex } from './memory-index.js';
import { listMemoryFiles } from './sources.js';

/** One line of `claw doctor`, in the shape the doctor list uses. */
export interface MemoryDoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

export interface MemoryDoctorOptions {
  config: ClawConfig;
  paths: StatePaths;
  agentId?: string;
  /** Send one tiny embedding request, so a wrong key or URL shows now rather than at the next sync. */
  probe?: boolean;
  /** Overrides the provider from config (tests). */
  provider?: EmbeddingProvider | null;
}

/** Files added, changed or removed on disk since the index last saw them. */
function staleFiles(index: MemoryIndex): number {
  const known = index.store.fileRows();
  let stale = 0;
  for (const file of listMemoryFiles(index.roots)) {
    const row = known.get(file.path);
    known.delete(file.path);
    try {
      const stat = statSync(file.absPath);
      if (!row || row.mtime !== Math.floor(stat.mtimeMs * 1000) || row.size !== stat.size) stale++;
    } catch {
      stale++;
    }
  }
  return stale + known.size;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const reindex = (agentId: string) => `claw memory index${agentId === 'main' ? '' : ` --agent ${agentId}`}`;

/**
 * The memory line of `claw doctor`: is there an index, does it match the
 * files, does vector search work, and is the embedding provider failing.
 * It reads the index in place (the gateway may hold it; SQLite allows that).
 */
export async function memoryDoctorCheck(options: MemoryDoctorOptions): Promise<MemoryDoctorCheck> {
  const agentId = options.agentId ?? 'main';
  const name = agentId === 'main' ? 'memory' : `memory (${agentId})`;
  if (!options.config.memory.enabled) return { name, status: 'ok', detail: 'disabled (memory.enabled is false)' };
  const indexPath = options.paths.memoryIndex(agentId);
  if (!existsSync(indexPath)) {
    // Keyword-only, the gateway opens the index at the first memory search rather than at start (SQLite is ~4 MB of an idle daemon): nothing is wrong.
    if (options.config.memory.embeddings.provider === 'none')
      return { name, status: 'ok', detail: `keyword-only; the index is built at the first memory search (\`${reindex(agentId)}\` builds it now)` };
    return {
      name,
      status: 'warn',
      detail: `no index yet at ${indexPath}`,
      fix: `Start the gateway (it embeds the memory files when it starts) or run \`${reindex(agentId)}\`.`,
    };
  }
  const index = new MemoryIndex({
    agentId,
    config: options.config,
    paths: options.paths,
    ...(options.provider !== undefined ? { provider: options.provider } : {}),
  });
  try {
    const status = index.status();
    const summary = `${count(status.files, 'file')}, ${count(status.chunks, 'chunk')}, ${status.mode === 'hybrid' ? `hybrid (${status.embeddings.model ?? 'embeddings'})` : 'keyword-only'}`;
    if (!status.vector.available) {
      return {
        name,
        status: 'fail',
        detail: `${summary}; ${status.vector.error ?? 'the vector extension did not load'}`,
        fix: 'Reinstall dependencies on this machine (`npm ci`) so sqlite-vec matches its platform.',
      };
    }
    if (status.embeddings.state === 'error') {
      return {
        name,
        status: 'fail',
        detail: `${summary}; embeddings failing: ${status.embeddings.error ?? 'unknown error'}`,
        fix: `Fix the provider settings (memory.embeddings.baseUrl, model, apiKeyEnv) or the account, then run \`${reindex(agentId)}\`.`,
      };
    }
    if (options.probe && status.embeddings.state === 'ok') {
      const probeError = await probeProvider(index.provider);
      if (probeError)
        return {
          name,
          status: 'fail',
          detail: `${summary}; the embedding provider refused a test request: ${probeError}`,
          fix: 'Check memory.embeddings.baseUrl, model and the API key, then run `claw doctor` again.',
        };
    }
    const stale = staleFiles(index);
    if (stale > 0) {
      return {
        name,
        status: 'warn',
        detail: `${summary}; ${count(stale, 'file')} changed since the last index`,
        fix: `Run \`${reindex(agentId)}\` (a running gateway re-indexes on its own after a change).`,
      };
    }
    const pending = status.chunks - status.embeddedChunks;
    if (status.embeddings.state === 'ok' && pending > 0) {
      return {
        name,
        status: 'warn',
        detail: `${summary}; ${count(pending, 'chunk')} without an embedding yet (found by keyword only)`,
        fix: `Run \`${reindex(agentId)}\` to finish embedding.`,
      };
    }
    if (status.embeddings.state === 'none') {
      return {
        name,
        status: 'ok',
        detail: `${summary}: exact words and identifiers are found, paraphrases are not (set memory.embeddings to add vector search)`,
      };
    }
    return { name, status: 'ok', detail: summary };
  } finally {
    await index.close();
  }
}

async function probeProvider(provider: EmbeddingProvider | undefined): Promise<string | undefined> {
  if (!provider) return undefined;
  try {
    await provider.embed(['claw doctor'], { maxRetries: 0 });
    return undefined;
  } catch (error) {
    if (error instanceof EmbeddingError) return error.message;
    throw error;
  }
}
