import { gatewayEvents } from './gateway.js';
import { runtimeEvents } from './runtime.js';
import { scheduleEvents } from './schedule.js';
import { messageEvents } from './messages.js';
import { mcpEvents } from './mcp.js';
import { skillsEvents } from './skills.js';
import { channelsEvents } from './channels.js';
import { pluginsEvents } from './plugins.js';
import { spendEvents } from './spend.js';
import { browserEvents } from './browser.js';
import { compactionEvents } from '../methods/compaction.js';

/** Every event the gateway pushes; subsystems add theirs in files of their own. */
export const events = {
  ...gatewayEvents,
  ...runtimeEvents,
  ...scheduleEvents,
  ...messageEvents,
  ...mcpEvents,
  ...skillsEvents,
  ...channelsEvents,
  ...pluginsEvents,
  ...spendEvents,
  ...browserEvents,
  ...compactionEvents,
};
