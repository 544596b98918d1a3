export {
  toolGroups,
  toolError,
  toolOk,
  type ToolGroup,
  type ToolRisk,
  type JsonSchemaObject,
  type ToolResult,
  type ToolContext,
  type ToolDefinition,
  type ApprovalGate,
  type ApprovalKind,
  type ApprovalDecision,
  type ApprovalRequestInput,
  type ApprovalOutcome,
} from './types.js';
export { defineTool } from './define-tool.js';
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
  guardedFetch,
  WebFetchError,
  AddressPolicy,
  htmlToMarkdown,
  wrapUntrusted,
  UNTRUSTED_TAG,
  UNTRUSTED_NOTICE,
  type WebToolConfig,
  type Resolver,
} from './web/index.js';
export {
  McpManager,
  McpCallError,
  ElicitationInbox,
  mcpToolName,
  mcpApprovalsFile,
  promptArguments,
  probeMcpServer,
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
export { parseCommand, planCommands, type ExecPlan, type PlanStep, type PlanCommand, type Redirect } from './exec/plan.js';
export { authorizeExec, type AuthorizeInput, type AuthorizeResult, type ResolvedCommand } from './exec/authorize.js';
export { readExecApprovalsFile, writeExecApprovalsFile, addExecRules, ruleText, type ExecApprovalsFile, type ExecRule } from './exec/approvals-policy.js';
export { resolveExecutable } from './exec/resolve-executable.js';
export { PlanRun, type RunOptions, type RunResult } from './exec/run-plan.js';
export { JobManager } from './exec/jobs.js';
export { createExecTool } from './exec/exec-tool.js';
export { createProcessTool } from './exec/process-tool.js';
export { createFsTools } from './fs/fs-tools.js';
export { confinePath } from './fs/confine.js';
