export { McpManager, type McpManagerOptions } from './manager.js';
export { type McpServerConfig, type McpServerState, type McpServerStatus, type BackoffOptions } from './connection.js';
export { mcpToolName, sanitizeNamePart, MAX_TOOL_NAME_LENGTH } from './names.js';
