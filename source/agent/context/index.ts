export {
  assembleContext,
  compactionHistory,
  compactionUndoEntry,
  effectiveCompaction,
  isSummaryMessage,
  summaryMessage,
  COMPACTION_UNDO,
  SUMMARY_PREFIX,
  type AssembledContext,
  type CompactionRecord,
  type CompactionUndoData,
} from './assembly.js';
export {
  accountContext,
  contextEventPayload,
  reportedTokens,
  toolSchemaTokens,
  type ContextAccount,
  type ContextPart,
  type ContextSources,
} from './accounting.js';
export { contextThresholds, defaultContextSettings, type ContextSettings, type ContextThresholds } from './thresholds.js';
export { ContextOverflow, type ContextEngine, type ContextEngineInfo, type ContextEngineOptions } from './engine.js';
export { CONTEXT_ENGINES, contextEngineFactory, type ContextEngineFactory } from './engines.js';
export { guardToolResult, toolResultCap, type GuardedResult } from './tool-result-guard.js';
export type { PruneState } from './prune-state.js';
export { EngineQuarantine, guardedEngine } from './quarantine.js';
export { CompactionPreviews, type PreviewDecision, type PreviewPlan } from './compaction-previews.js';
