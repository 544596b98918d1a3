export {
  toolGroups,
  toolError,
  toolOk,
  type ToolGroup,
  type ToolRisk,
  type JsonSchemaObject,
  type ToolResult,
  type ToolMedia,
  type ToolContext,
  type ToolDefinition,
  type ApprovalGate,
  type ApprovalKind,
  type ApprovalDecision,
  type ApprovalRequestInput,
  type ApprovalOutcome,
} from './types.js';
export { defineTool, toolParameters } from './define-tool.js';
export { ToolRegistry } from './registry.js';
export {
  decideTools,
  allowedToolNames,
  policyLayers,
  DEFAULT_TOOL_PROFILE,
  type ToolProfile,
  type PolicyLayer,
  type PolicyTool,
  type PolicyDecision,
  type PolicyScope,
} from './policy.js';
export {
  createWebFetchTool,
  guardedStream,
  WebFetchError,
  AddressPolicy,
  wrapUntrusted,
  fenceNonce,
  UNTRUSTED_TAG,
  UNTRUSTED_NOTICE,
  type WebToolConfig,
  type GuardedStream,
  type Resolver,
} from './web/index.js';
export {
  McpManager,
  McpCallError,
  ElicitationInbox,
  mcpToolName,
  sanitizeNamePart,
  mcpApprovalsFile,
  promptArguments,
  probeMcpServer,
  forgetMcpCredentials,
  readMcpInputs,
  saveMcpInput,
  inputsUsed,
  RESOURCE_TOOL_NAME,
  type McpManagerOptions,
  type McpChange,
  type McpServerConfig,
  type McpServerState,
  type McpServerStatus,
  type McpPromptCommand,
  type McpProbeReport,
  type ElicitationRecord,
  type StderrLine,
} from './mcp/index.js';
export { ApprovalInbox, type AlwaysEffect, type InboxOptions, type ResolveResult } from './approvals/inbox.js';
export { createToolsRuntime, approvalRequestsFile, type ToolsRuntime, type ToolsRuntimeOptions } from './tools-runtime.js';
export { execGroupsDir } from './tools-runtime.js';
export { parseCommand, planCommands, type ExecPlan, type PlanStep, type PlanCommand, type Redirect } from './exec/plan.js';
export { authorizeExec, rulesForAlways, type AuthorizeInput, type AuthorizeResult } from './exec/authorize.js';
export { bindPlan, describeBoundPlan, type BoundPlan, type BoundCommand, type BindInput } from './exec/bound-plan.js';
export { isSafeCommand, safeCommandNames } from './exec/safe-list.js';
export { expandGlob, expandPlanGlobs } from './exec/glob.js';
export {
  readExecApprovalsFile,
  writeExecApprovalsFile,
  addExecRules,
  ruleText,
  ruleMatchesCommand,
  type ExecApprovalsFile,
  type ExecRule,
} from './exec/approvals-policy.js';
export { hardenGit, gitConfigEnv } from './exec/git-guard.js';
export { probeSandbox, probeSandboxInBackground, bubblewrapArgs, hiddenPaths, type SandboxPolicy, type SandboxStatus } from './sandbox/sandbox.js';
export { execSandboxFor, describeExecSandbox, confineCommand, type ConfinedCommand } from './sandbox/exec-sandbox.js';
export { childEnv } from './sandbox/child-env.js';
export { SecretRedactor, collectKnownSecrets, type KnownSecret, type SecretSources } from './redact.js';
export { openConfinedSync, type OpenMode, type ConfinedFile } from './fs/safe-open.js';
export { resolveExecutable } from './exec/resolve-executable.js';
export { PlanRun, type RunOptions, type RunResult } from './exec/run-plan.js';
export { JobManager } from './exec/jobs.js';
export { ProcessGroupLedger, type LeftoverGroup } from './exec/process-groups.js';
export { createExecTool, type ExecSandbox, type ExecToolOptions } from './exec/exec-tool.js';
export { createProcessTool } from './exec/process-tool.js';
export { createFsTools } from './fs/fs-tools.js';
export { confinePath } from './fs/confine.js';
export { changeDiff, ownerOnlyPaths } from './fs/owner-paths.js';
export {
  createBrowser,
  findChromium,
  CHROMIUM_MISSING,
  readBrowserSecrets,
  writeBrowserSecret,
  browserSecretsFile,
  type BrowserHandle,
} from './browser/index.js';
