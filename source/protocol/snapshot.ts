import { z } from 'zod';
import { cooldownEntry } from './methods/models.js';
import { lazySchema } from './lazy-schema.js';
import { contextPayload, lanesPayload, subagentNode } from './events/runtime.js';
import { approvalRecord } from './methods/approvals.js';
import { channelStatus } from './methods/channels.js';
import { pluginInfo } from './methods/plugins.js';
import { mcpElicitationRecord } from './methods/mcp-elicitation.js';
import { configStatus, healthPayload, presenceEntry, recoveryReport } from './gateway-state.js';
import { sessionSummary } from './methods/sessions.js';
import { scheduleOverview } from './methods/schedule.js';
import { spendSummary } from './methods/spend.js';
import { sessionBrowserTabs } from './events/browser.js';
import { compactionPreview } from './methods/compaction.js';

/**
 * The state a client needs on connect (the hello) and after a seq gap
 * (`events.snapshot`). Every key is optional: a gateway built without a
 * subsystem leaves its key out, and a client applies each key on its own.
 */
export const gatewaySnapshot = lazySchema(() =>
  z.strictObject({
    sessions: z.array(sessionSummary).optional(),
    lanes: lanesPayload.optional(),
    approvals: z.array(approvalRecord).optional(),
    /** The latest context report of each listed session, so a new client shows real numbers at once. */
    context: z.array(contextPayload).optional(),
    subagents: z.strictObject({ nodes: z.array(subagentNode) }).optional(),
    config: configStatus.optional(),
    /** MCP server questions waiting for the operator. */
    mcpElicitations: z.array(mcpElicitationRecord).optional(),
    presence: z.array(presenceEntry).optional(),
    health: healthPayload.optional(),
    /** Cron jobs (with their next runs), heartbeat state and schedule notices. */
    schedule: scheduleOverview.optional(),
    /** Chat channel accounts with their state (running, reconnecting, error with the reason). */
    channels: z.array(channelStatus).optional(),
    /** Installed plugins and their state, when any is installed. */
    plugins: z.array(pluginInfo).optional(),
    /** Keys and models failover is skipping now. */
    cooldowns: z.array(cooldownEntry).optional(),
    /** The last start's crash recovery, when the crash-loop guard failed a message. */
    recovery: recoveryReport.optional(),
    /** Today's spend and the nearest cap (absent before the first model call ever made). */
    spend: spendSummary.optional(),
    /** Sessions with open browser tabs (absent while no browser runs). */
    browserTabs: z.array(sessionBrowserTabs).optional(),
    /** Automatic compactions waiting out their preview. */
    compactionPreviews: z.array(compactionPreview).optional(),
  }),
);
export type GatewaySnapshot = z.infer<typeof gatewaySnapshot>;
