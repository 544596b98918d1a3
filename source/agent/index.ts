export { AgentRuntime, type AgentRuntimeDeps, type ContextReport, type LastError } from './agent-runtime.js';
export {
  bootstrapFileNames,
  ensureWorkspaceSync,
  isOnboardedWorkspaceSync,
  isFirstRunSync,
  markFirstRunCompleteSync,
  workspaceTemplateDir,
  type BootstrapFileName,
  type WorkspaceSetup,
} from './workspace.js';
export {
  loadBootstrapSync,
  selectBootstrapFiles,
  truncateHeadTail,
  BOOTSTRAP_FILE_MAX_CHARS,
  BOOTSTRAP_TOTAL_MAX_CHARS,
  type BootstrapFile,
  type BootstrapFileReport,
  type BootstrapLoad,
  type BootstrapOptions,
  type SessionKind,
} from './bootstrap.js';
export { BootstrapCache } from './bootstrap-cache.js';
export { writeOnboardingNamesSync, type OnboardingNames } from './onboarding.js';
export { localDay, DAILY_NOTE_FILE_MAX_CHARS, DAILY_NOTES_TOTAL_MAX_CHARS } from './daily-notes.js';
export { stripFrontMatter } from './front-matter.js';
export { buildSystemPrompt, promptTime, type PromptSection, type RuntimeFacts, type SystemPrompt, type SystemPromptInput } from './system-prompt.js';
export type { SkillsPromptSnapshot, SkillsSource } from './skills-source.js';
export { NO_REPLY } from './reply-stream.js';
export { ABORTED_RESULT, SKIPPED_RESULT } from './tool-round.js';
export { blockedToolResult, type AgentHooks } from './turn-hooks.js';
export type { HistoryMessage, NewTranscriptEntry, TurnEvents, TurnInput, TurnOutcome, TurnSession, TurnStatus } from './turn-types.js';
export { CommandRegistry, builtinCommands, parseCommandText } from './commands/registry.js';
export { checkModelRef } from './commands/model.js';
export { createAgentSlashCommand } from './commands/agent.js';
export type { CommandContext, CommandHost, CommandReply, ScheduleCommandHost, SlashCommand } from './commands/types.js';
export * from './context/index.js';
export * from './compaction/index.js';
export * from './sessions-tools/index.js';
