import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** agents.*: a thin adapter over the core's agents service. */
export function agentsRpc(core: Core): HandlerTable {
  const { agents } = core;
  return {
    'agents.list': () => ({ agents: agents.list() }),
    'agents.add': async ({ idempotencyKey: _key, ...input }) => ({ agent: await agents.add(input) }),
    'agents.remove': ({ id }) => agents.remove(id),
  };
}
