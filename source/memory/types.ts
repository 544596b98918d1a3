import type { z } from 'zod';
import type { memorySearchHit, memorySearchResult, memoryStatusPayload, memorySyncStats } from '../protocol/index.js';

/** The memory roots of one agent: its workspace plus configured extra paths. */
export interface MemoryRoots {
  workspace: string;
  /** Absolute files or folders of markdown outside the workspace. */
  extraPaths: string[];
}

export type MemorySource = MemorySearchHit['source'];

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
  /** Add `explain` to each hit. */
  explain?: boolean;
}

export type MemorySearchHit = z.infer<typeof memorySearchHit>;
export type MemorySearchResult = z.infer<typeof memorySearchResult>;
export type SearchMode = MemorySearchResult['mode'];

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

export type SyncStats = z.infer<typeof memorySyncStats>;
export type MemoryStatus = z.infer<typeof memoryStatusPayload>;
export type EmbeddingState = MemoryStatus['embeddings']['state'];
