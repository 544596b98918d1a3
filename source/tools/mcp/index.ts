export { McpManager, type McpManagerOptions, type McpChange, type McpResourceEntry, type McpResourceTemplateEntry } from './manager.js';
export { McpCallError, type McpServerConfig, type McpServerState, type McpServerStatus, type BackoffOptions } from './connection.js';
export { mcpToolName, sanitizeNamePart, MAX_TOOL_NAME_LENGTH } from './names.js';
export { promptArguments, type McpPromptCommand, type McpPromptArgument, type McpPromptMessage } from './prompts.js';
export { ElicitationInbox, checkElicitationContent, type ElicitationRecord, type ElicitationAnswer } from './elicitation.js';
export { mcpAlwaysHandler, mcpApprovalsFile } from './approval-rules.js';
export { RESOURCE_TOOL_NAME } from './resource-tool.js';
export type { StderrLine } from './stderr-log.js';
export { probeMcpServer, type McpProbeReport } from './probe.js';
