/** The memory roots of one agent: its workspace plus configured extra paths. */
export interface MemoryRoots {
  workspace: string;
  /** Absolute files or folders of markdown outside the workspace. */
  extraPaths: string[];
}

export type MemorySource = 'memory' | 'extra';

export interface MemoryFile {
  /** Workspace-relative for workspace files (`memory/2026-01-02.md`), absolute for extra paths. */
  path: string;
  absPath: string;
  source: MemorySource;
}

export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
  hash: string;
}

export interface MemorySearchParams {
  query: string;
  maxResults?: number;
  minScore?: number;
}

export interface MemorySearchHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  source: MemorySource;
}

export type SearchMode = 'hybrid' | 'keyword';

export interface MemorySearchResult {
  results: MemorySearchHit[];
  mode: SearchMode;
  /** Why the search is degraded (no provider, vector extension missing, embedding errors), in plain words. */
  warnings: string[];
}

export interface MemoryGetParams {
  path: string;
  /** 1-based first line; default 1. */
  from?: number;
  /** Number of lines; default the rest of the file (capped). */
  lines?: number;
}

export interface MemoryGetResult {
  path: string;
  from: number;
  to: number;
  totalLines: number;
  text: string;
}

export interface SyncProgress {
  phase: 'files' | 'embeddings';
  filesDone: number;
  filesTotal: number;
  chunks: number;
  embeddingsDone: number;
  embeddingsTotal: number;
}

export interface SyncStats {
  filesScanned: number;
  filesChanged: number;
  filesRemoved: number;
  chunksWritten: number;
  /** Chunks whose vectors came from the embedding cache. */
  cacheHits: number;
  /** Chunks sent to the embedding provider. */
  embedded: number;
  /** Chunks still without a vector (no provider, provider error, interrupted). */
  pendingEmbeddings: number;
  durationMs: number;
}

export type EmbeddingState = 'none' | 'ok' | 'error';

export interface MemoryStatus {
  agentId: string;
  indexPath: string;
  workspace: string;
  extraPaths: string[];
  files: number;
  chunks: number;
  embeddedChunks: number;
  mode: SearchMode;
  keyword: { tokenizer: string };
  vector: { available: boolean; error?: string; dims?: number };
  embeddings: { state: EmbeddingState; provider: string; model?: string; error?: string };
  syncing: boolean;
  dirty: boolean;
  lastSyncAt?: number;
  /** Plain sentences for the user: what is degraded and how to fix it. */
  notes: string[];
}
