import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** hooks.*: a thin adapter over the hooks service. */
export function hooksRpc(core: Core): HandlerTable {
  return {
    // Hook folders are read after the gateway listens: an early `claw hooks list` waits for them rather than seeing none.
    'hooks.list': async () => {
      await core.hooks.discovered();
      return core.hooks.status();
    },
  };
}
