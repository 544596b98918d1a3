export { McpService, type McpServiceOptions } from './service.js';
export { mcpSampler, SAMPLING_MAX_TOKENS } from './sampling.js';
export { mcpPromptSlashCommands } from './commands.js';
export { McpMentionInbound, MAX_MENTION_CHARS } from './mentions.js';
