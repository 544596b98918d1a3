import { type ClawConfig, type StatePaths, systemClock, type Clock } from '../config/index.js';
import { embeddingProviderFromConfig, EmbeddingError, type EmbeddingErrorKind, type EmbeddingProvider } from './embeddings.js';
import { IndexStore } from './index-store.js';
import { readMemoryLines } from './memory-get.js';
import { parseQuery } from './query.js';
import { memoryRoots } from './roots.js';
import { searchIndex, type SearchSettings } from './search.js';
import { embedPending, syncFiles } from './sync.js';
import { KEYWORD_TOKENIZER } from './text-tokens.js';
import type { MemoryGetParams, MemoryGetResult, MemoryRoots, MemorySearchParams, MemorySearchResult, MemoryStatus, SyncProgress, SyncStats } from './types.js';

const NO_PROVIDER =
  'Keyword-only: no embedding provider is configured. Set memory.embeddings.provider to "openai" (any OpenAI-compatible server: OpenAI, Ollama, llama.cpp, vLLM) to add vector search.';

export interface MemoryIndexOptions {
  agentId: string;
  config: ClawConfig;
  paths: StatePaths;
  /** Overrides the provider from config; `null` forces keyword-only. */
  provider?: EmbeddingProvider | null;
  /** Loads the vector extension from this file instead of the sqlite-vec package. */
  vecExtensionPath?: string;
  clock?: Pick<Clock, 'now'>;
}

export interface SyncOptions {
  /** Re-chunk every file even when unchanged (vectors still come from the cache). */
  force?: boolean;
  /** Try the provider again after a quota/auth error (explicit reindex only). */
  retryEmbeddings?: boolean;
  onProgress?: (progress: SyncProgress) => void;
}

/**
 * One agent's memory: the markdown roots, the SQLite index and the embedding
 * provider. Syncs run one at a time; searches never wait for embeddings.
 */
export class MemoryIndex {
  readonly agentId: string;
  readonly roots: MemoryRoots;
  readonly store: IndexStore;
  readonly provider: EmbeddingProvider | undefined;
  private readonly config: ClawConfig;
  private readonly clock: Pick<Clock, 'now'>;
  private embeddingError: EmbeddingError | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pendingSyncs = 0;
  private dirty = true;
  /** Resolves once the latest sync has brought the files (not yet their embeddings) into the store. */
  private filesStage: Promise<void> = Promise.resolve();
  private lastSyncAt: number | undefined;
  private closed = false;

  constructor(options: MemoryIndexOptions) {
    this.agentId = options.agentId;
    this.config = options.config;
    this.clock = options.clock ?? systemClock;
    this.roots = memoryRoots(options.config, options.paths, options.agentId);
    this.provider = options.provider === null ? undefined : (options.provider ?? embeddingProviderFromConfig(options.config));
    this.store = new IndexStore(options.paths.memoryIndex(options.agentId), options.vecExtensionPath ? { vecExtensionPath: options.vecExtensionPath } : {});
    const last = Number(this.store.getMeta('last_sync_at'));
    if (last > 0) this.lastSyncAt = last;
    this.embeddingError = this.loadEmbeddingError();
  }

  // A quota or auth failure survives restarts, so a daemon restart does not
  // hammer an exhausted account again; an explicit reindex clears it.
  private loadEmbeddingError(): EmbeddingError | undefined {
    const saved = this.store.getMeta('embedding_error');
    if (!saved || !this.provider) return undefined;
    const { kind, message, model } = JSON.parse(saved) as { kind: EmbeddingErrorKind; message: string; model: string };
    return model === this.provider.model ? new EmbeddingError(kind, message) : undefined;
  }

  private setEmbeddingError(error: EmbeddingError | undefined): void {
    this.embeddingError = error;
    if (this.closed) return;
    const fatal = error && error.kind !== 'transient' && this.provider;
    this.store.setMeta('embedding_error', fatal ? JSON.stringify({ kind: error.kind, message: error.message, model: this.provider!.model }) : undefined);
  }

  /** Notes that files changed; the next search or sync picks it up. */
  markDirty(): void {
    this.dirty = true;
  }

  get syncing(): boolean {
    return this.pendingSyncs > 0;
  }

  /** Runs after any sync already in progress. */
  sync(options: SyncOptions = {}): Promise<SyncStats> {
    this.pendingSyncs++;
    let filesDone: () => void = () => undefined;
    this.filesStage = new Promise<void>((resolve) => {
      filesDone = resolve;
    });
    const run = this.queue
      .then(() => this.runSync(options, filesDone))
      .finally(() => {
        this.pendingSyncs--;
        filesDone();
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runSync(options: SyncOptions, filesDone: () => void): Promise<SyncStats> {
    const started = performance.now();
    this.dirty = false;
    if (options.force) this.store.clear();
    const files = syncFiles(this.store, this.roots, this.config.memory.chunking, options.onProgress ? { onProgress: options.onProgress } : {});
    filesDone();
    const stats: SyncStats = { ...files, cacheHits: 0, embedded: 0, pendingEmbeddings: 0, durationMs: 0 };
    const fatal = this.embeddingError && this.embeddingError.kind !== 'transient';
    if (this.provider && this.store.vectorsAvailable && !this.closed && (!fatal || options.retryEmbeddings)) {
      try {
        const embedded = await embedPending(this.store, this.provider, {
          batch: this.config.memory.embeddings.batchSize,
          shouldStop: () => this.closed,
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        });
        stats.cacheHits = embedded.cacheHits;
        stats.embedded = embedded.embedded;
        this.setEmbeddingError(undefined);
      } catch (error) {
        if (!(error instanceof EmbeddingError)) throw error;
        this.setEmbeddingError(error);
      }
    }
    if (this.provider && !this.closed) stats.pendingEmbeddings = this.store.countPending(this.provider.model);
    this.lastSyncAt = this.clock.now();
    if (!this.closed) this.store.setMeta('last_sync_at', String(this.lastSyncAt));
    stats.durationMs = Math.round(performance.now() - started);
    return stats;
  }

  /** Failures (not choices such as "no provider") that make search weaker than configured. */
  problems(): string[] {
    return [this.store.vecError, this.embeddingError?.message].filter((text): text is string => text !== undefined);
  }

  private warnings(): string[] {
    const out: string[] = [];
    if (!this.provider) out.push(NO_PROVIDER);
    if (this.store.vecError) out.push(this.store.vecError);
    if (this.embeddingError) out.push(this.embeddingError.message);
    return out;
  }

  private searchSettings(): SearchSettings {
    return this.config.memory.search;
  }

  /**
   * Searches what is indexed now. Pending file changes are applied first
   * (cheap: chunking only); embedding them continues in the background so a
   * tool call never waits for a re-embedding storm.
   */
  async search(params: MemorySearchParams): Promise<MemorySearchResult> {
    // Never answer from an index older than the files: a sync under way (the one an index opens with, after a
    // restart) has its file stage waited for; chunking only, so this is quick even for hundreds of notes.
    if (this.syncing) await this.filesStage;
    else if (this.dirty) {
      this.dirty = false;
      syncFiles(this.store, this.roots, this.config.memory.chunking);
      if (this.provider) void this.sync().catch(() => undefined);
    }
    const warnings = this.warnings();
    const parsed = parseQuery(params.query);
    let queryVector: Float32Array | undefined;
    const vectorUsable =
      this.provider && this.store.vectorsAvailable && this.store.vectorDims !== undefined && !(this.embeddingError && this.embeddingError.kind !== 'transient');
    if (this.provider && vectorUsable && !parsed.onlyStopWords) {
      try {
        [queryVector] = await this.provider.embed([params.query], { maxRetries: 0 });
      } catch (error) {
        if (!(error instanceof EmbeddingError)) throw error;
        if (error.kind !== 'transient') this.setEmbeddingError(error);
        warnings.push(`The query could not be embedded, so this search is keyword-only: ${error.message}`);
      }
    }
    const pending = queryVector ? this.store.countUnembedded() : 0;
    if (pending > 0) warnings.push(`${pending} chunks are still waiting for embeddings; they are found by keyword only.`);
    return searchIndex(this.store, params, this.searchSettings(), { queryVector, now: this.clock.now(), warnings, parsed });
  }

  get(params: MemoryGetParams): MemoryGetResult {
    return readMemoryLines(this.roots, params);
  }

  status(): MemoryStatus {
    const counts = this.store.counts();
    const embeddingState = !this.provider ? 'none' : this.embeddingError ? 'error' : 'ok';
    const hybrid = this.provider !== undefined && this.store.vectorsAvailable && !(this.embeddingError && this.embeddingError.kind !== 'transient');
    const notes = this.warnings();
    const pending = this.provider ? this.store.countPending(this.provider.model) : 0;
    if (this.provider && pending > 0) notes.push(`${pending} of ${counts.chunks} chunks have no embedding yet; run \`claw memory index\` to finish.`);
    return {
      agentId: this.agentId,
      indexPath: this.store.path,
      workspace: this.roots.workspace,
      extraPaths: this.roots.extraPaths,
      files: counts.files,
      chunks: counts.chunks,
      embeddedChunks: counts.embedded,
      mode: hybrid ? 'hybrid' : 'keyword',
      keyword: { tokenizer: KEYWORD_TOKENIZER },
      vector: {
        available: this.store.vectorsAvailable,
        ...(this.store.vecError ? { error: this.store.vecError } : {}),
        ...(this.store.vectorDims ? { dims: this.store.vectorDims } : {}),
      },
      embeddings: {
        state: embeddingState,
        provider: this.provider?.label ?? 'none',
        ...(this.provider ? { model: this.provider.model } : {}),
        ...(this.embeddingError ? { error: this.embeddingError.message } : {}),
      },
      syncing: this.syncing,
      dirty: this.dirty,
      ...(this.lastSyncAt !== undefined ? { lastSyncAt: this.lastSyncAt } : {}),
      notes,
    };
  }

  /** Waits for the running sync to reach a safe point, then closes the database. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    this.store.close();
  }
}
