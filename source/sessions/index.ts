export { SessionRegistry, type SessionRegistryOptions, type SettingsPatch, type EnsureResult } from './session-registry.js';
export { SessionStore } from './session-store.js';
export { sessionEntry, sessionStoreFile, type SessionEntry, type SessionStoreFile } from './session-entry.js';
export { TranscriptSession, RECOVERED_ENTRY, REPLY_DELIVERED, isOutcomeEntry } from './transcript-session.js';
export { loadTranscriptSync, TranscriptAppender, ABORTED_TOOL_RESULT, type LoadedTranscript, type TranscriptRepair } from './transcript-file.js';
export { resetDue, type ResetPolicy } from './reset-policy.js';
export { WriteProbe, type WriteProbeOptions, type WriteStatus } from './write-probe.js';
export * from './search/index.js';
export { SessionEviction } from './session-eviction.js';
