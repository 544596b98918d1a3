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
  mcpToolName,
  type McpManagerOptions,
  type McpServerConfig,
  type McpServerState,
  type McpServerStatus,
} from './mcp/index.js';
