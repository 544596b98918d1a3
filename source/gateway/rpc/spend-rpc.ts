import type { Core } from '../../core/index.js';
import { configuredAgentIds } from '../../memory/index.js';
import type { HandlerTable } from '../module.js';

/** spend.*: today's spend and caps, usage over days, resuming a session the runaway guard paused. */
export function spendRpc(core: Core): HandlerTable {
  const { spend } = core;
  return {
    'spend.status': () => spend.status(configuredAgentIds(core.config.current)),
    'spend.usage': (params) => spend.usage(params.days),
    'spend.resume': (params) => ({ resumed: spend.resume(params.sessionKey) }),
  };
}
