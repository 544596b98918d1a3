import { gatewayMethods } from './gateway.js';
import { sessionMethods } from './sessions.js';
import { chatMethods } from './chat.js';
import { commandMethods } from './commands.js';
import { approvalMethods } from './approvals.js';
import { toolMethods } from './tools.js';
import { memoryMethods } from './memory.js';
import { mcpMethods } from './mcp.js';
import { hookMethods } from './hooks.js';
import { modelMethods } from './models.js';
import { scheduleMethods } from './schedule.js';
import { searchMethods } from './search.js';
import { mcpFeatureMethods } from './mcp-features.js';
import { mcpElicitationMethods } from './mcp-elicitation.js';
import { setupMethods } from './setup.js';
import { subagentMethods } from './subagents.js';
import { agentMethods } from './agents.js';
import { channelMethods } from './channels.js';
import { spendMethods } from './spend.js';
import { compactionMethods } from './compaction.js';
import { pluginMethods } from './plugins.js';

/**
 * Every RPC method the gateway may serve. A subsystem adds its methods in a
 * file of its own in this folder and spreads them here. The hello reply lists
 * the subset this gateway actually serves.
 */
export const methods = {
  ...gatewayMethods,
  ...sessionMethods,
  ...chatMethods,
  ...commandMethods,
  ...approvalMethods,
  ...toolMethods,
  ...memoryMethods,
  ...mcpMethods,
  ...hookMethods,
  ...modelMethods,
  ...scheduleMethods,
  ...searchMethods,
  ...mcpFeatureMethods,
  ...mcpElicitationMethods,
  ...setupMethods,
  ...subagentMethods,
  ...agentMethods,
  ...channelMethods,
  ...spendMethods,
  ...compactionMethods,
  ...pluginMethods,
};
