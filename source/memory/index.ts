export { MemoryIndex, type MemoryIndexOptions, type SyncOptions } from './memory-index.js';
export { memoryIndexFor, closeMemoryIndex } from './registry.js';
export { watchMemory, type MemoryWatcher, type WatchOptions } from './watcher.js';
export { writeSessionMemory, sessionSlug, type ConversationMessage, type SessionMemoryOptions } from './session-memory.js';
export { createOpenAiEmbeddings, embeddingProviderFromConfig, EmbeddingError, type EmbeddingProvider, type EmbeddingErrorKind } from './embeddings.js';
export { chunkMarkdown, estimateTokens } from './chunker.js';
export { memoryRoots, agentWorkspace, configuredAgentIds } from './roots.js';
export { KEYWORD_TOKENIZER } from './text-tokens.js';
export { memoryDoctorCheck, type MemoryDoctorCheck, type MemoryDoctorOptions } from './doctor.js';
export type {
  Chunk,
  MemoryFile,
  MemoryGetParams,
  MemoryGetResult,
  MemoryRoots,
  MemorySearchHit,
  MemorySearchParams,
  MemorySearchResult,
  MemorySource,
  MemoryStatus,
  SearchMode,
  SyncProgress,
  SyncStats,
} from './types.js';
