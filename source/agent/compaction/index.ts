export { compactHistory, type CompactionRequest, type CompactionResult, type Summariser, type SummaryRequest } from './compact.js';
export { extractIdentifiers, identifierAppendix, missingIdentifiers, type Identifier, type IdentifierKind } from './identifiers.js';
export { memoryFlushDue, memoryFlushPrompt, memoryNotePath, MEMORY_FLUSH_SYNTHETIC, type MemoryFlushState } from './memory-flush.js';
export {
  initialRecoveryState,
  nextRecoveryStep,
  overflowFailure,
  shrinkToolResults,
  SHRINK_SHARES,
  type RecoveryState,
  type RecoveryStep,
} from './overflow.js';
export { providerSummariser } from './provider-summariser.js';
export { SUMMARY_SECTIONS, renderMessages } from './prompts.js';
export {
  CHUNK_RATIO,
  SAFETY_MARGIN,
  STAGE_PARTS,
  groupUnits,
  maxChunkTokens,
  splitForCompaction,
  stageChunks,
  type CompactionSplit,
  type Unit,
} from './units.js';
export { ContextWindow, commandRunId, MEMORY_FLUSH_RECORD, type ContextWindowOptions } from './context-window.js';
