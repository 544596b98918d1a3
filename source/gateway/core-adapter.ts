import type { Core } from '../core/index.js';
import type { GatewayModule } from './module.js';
import { agentsRpc } from './rpc/agents-rpc.js';
import { hooksRpc } from './rpc/hooks-rpc.js';
import { channelsRpc } from './rpc/channels-rpc.js';
import { mcpRpc } from './rpc/mcp-rpc.js';
import { modelsRpc } from './rpc/models-rpc.js';
import { servicesRpc } from './rpc/services-rpc.js';
import { scheduleRpc } from './rpc/schedule-rpc.js';
import { subagentsRpc } from './rpc/subagents-rpc.js';
import { spendRpc } from './rpc/spend-rpc.js';
import { compactionRpc } from './rpc/compaction-rpc.js';
import { sessionsRpc } from './rpc/sessions-rpc.js';
import { setupRpc } from './rpc/setup-rpc.js';
import { pluginsRpc } from './rpc/plugins-rpc.js';

/** The core the daemon built, as the gateway serves it: its RPC methods, health, hello snapshot, drain and stop. */
export function coreGatewayModule(core: Core): GatewayModule {
  return {
    name: 'core',
    handlers: {
      ...sessionsRpc(core),
      ...servicesRpc(core),
      ...hooksRpc(core),
      ...scheduleRpc(core),
      ...mcpRpc(core),
      ...modelsRpc(core),
      ...setupRpc(core),
      ...subagentsRpc(core),
      ...spendRpc(core),
      ...compactionRpc(core),
      ...agentsRpc(core),
      ...channelsRpc(core),
      ...pluginsRpc(core),
    },
    snapshot: () => core.snapshot(),
    healthChecks: () => core.health(),
    ready: () => core.ready(),
    listening: (port) => core.warm(port),
    drain: (deadline, reason) => core.drain(deadline, reason),
    close: () => core.stop(),
    http: (req, res, path) => core.hooks.http(req, res, path),
  };
}
