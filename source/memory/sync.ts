import { readFileSync, statSync } from 'node:fs';
import { chunkMarkdown, hashText, type ChunkOptions } from './chunker.js';
import type { EmbeddingProvider } from './embeddings.js';
import type { IndexStore } from './index-store.js';
import { dateChunks } from './note-dates.js';
import { listMemoryFiles } from './sources.js';
import type { MemoryRoots, SyncProgress } from './types.js';

/** Files per commit: large enough to amortise FTS5 segment flushes, small enough that an interrupted build keeps most of its work. */
const FILES_PER_COMMIT = 100;

export interface FilePhaseResult {
  filesScanned: number;
  filesChanged: number;
  filesRemoved: number;
  chunksWritten: number;
}

/**
 * Brings files and chunks in line with the markdown on disk. A file whose
 * mtime and size are unchanged is skipped without reading; one whose content
 * hash is unchanged is not re-chunked. Files commit in groups, and a file's
 * rows always land together, so an interrupted build resumes cleanly.
 */
export function syncFiles(
  store: IndexStore,
  roots: MemoryRoots,
  chunking: ChunkOptions,
  options: { force?: boolean; onProgress?: (p: SyncProgress) => void } = {},
): FilePhaseResult {
  const files = listMemoryFiles(roots);
  const known = store.fileRows();
  const result: FilePhaseResult = { filesScanned: files.length, filesChanged: 0, filesRemoved: 0, chunksWritten: 0 };
  const report = (done: number) =>
    options.onProgress?.({ phase: 'files', filesDone: done, filesTotal: files.length, chunks: result.chunksWritten, embeddingsDone: 0, embeddingsTotal: 0 });
  const syncOne = (file: (typeof files)[number], i: number) => {
    const row = known.get(file.path);
    known.delete(file.path);
    let stat;
    try {
      stat = statSync(file.absPath);
    } catch {
      return;
    }
    // Microseconds: two writes within one millisecond must still look different.
    const mtime = Math.floor(stat.mtimeMs * 1000);
    if (!options.force && row && row.mtime === mtime && row.size === stat.size) return;
    const content = readFileSync(file.absPath, 'utf8');
    const hash = hashText(content);
    if (!options.force && row && row.hash === hash) {
      store.touchFile(file.path, mtime, stat.size);
      return;
    }
    const chunks = dateChunks(file.path, content, chunkMarkdown(content, chunking), stat.mtimeMs);
    store.replaceFile(file, { hash, mtime, size: stat.size }, chunks, row === undefined);
    result.filesChanged++;
    result.chunksWritten += chunks.length;
    report(i + 1);
  };
  for (let from = 0; from < files.length; from += FILES_PER_COMMIT) {
    store.batch(() => files.slice(from, from + FILES_PER_COMMIT).forEach((file, i) => syncOne(file, from + i)));
  }
  store.batch(() => {
    for (const path of known.keys()) {
      store.removeFile(path);
      result.filesRemoved++;
    }
  });
  report(files.length);
  return result;
}

export interface EmbedPhaseResult {
  cacheHits: number;
  embedded: number;
  pending: number;
}

/**
 * Gives every chunk a vector: from the cache when its content hash was seen
 * with this model, otherwise from the provider in batches. Progress is stored
 * after each batch, so an interrupted run resumes where it stopped. Provider
 * errors propagate after the finished batches are saved.
 */
export async function embedPending(
  store: IndexStore,
  provider: EmbeddingProvider,
  options: {
    /** Chunks per provider request, so each finished request is saved. */ batch?: number;
    onProgress?: (p: SyncProgress) => void;
    shouldStop?: () => boolean;
  } = {},
): Promise<EmbedPhaseResult> {
  const batch = options.batch ?? 256;
  const total = store.countPending(provider.model);
  const result: EmbedPhaseResult = { cacheHits: 0, embedded: 0, pending: total };
  let done = 0;
  let afterId = 0;
  while (store.vectorsAvailable && !options.shouldStop?.()) {
    const rows = store.pendingChunks(provider.model, afterId, batch);
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    const cached = store.cachedVectors(
      rows.map((row) => row.hash),
      provider.model,
    );
    const hits = rows.filter((row) => cached.has(row.hash)).map((row) => ({ ...row, vector: cached.get(row.hash)! }));
    const misses = rows.filter((row) => !cached.has(row.hash));
    store.storeVectors(hits, provider.model);
    result.cacheHits += hits.length;
    if (misses.length > 0) {
      // Identical chunk texts (repeated boilerplate) are embedded once.
      const unique = [...new Map(misses.map((row) => [row.hash, row.text])).entries()];
      const vectors = await provider.embed(unique.map(([, text]) => text));
      const byHash = new Map(unique.map(([hash], i) => [hash, vectors[i]!]));
      store.storeVectors(
        misses.map((row) => ({ ...row, vector: byHash.get(row.hash)! })),
        provider.model,
      );
      result.embedded += misses.length;
    }
    done += rows.length;
    result.pending = Math.max(0, total - done);
    options.onProgress?.({ phase: 'embeddings', filesDone: 0, filesTotal: 0, chunks: 0, embeddingsDone: done, embeddingsTotal: total });
  }
  result.pending = store.countPending(provider.model);
  return result;
}
