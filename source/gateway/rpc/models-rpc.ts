import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** models.*: the cooldowns failover keeps, read and lifted. */
export function modelsRpc(core: Core): HandlerTable {
  return {
    'models.cooldowns': () => ({ cooldowns: core.providers.cooldowns() }),
    'models.resetCooldown': (params) => ({ lifted: core.providers.resetCooldowns(params?.which) }),
  };
}
