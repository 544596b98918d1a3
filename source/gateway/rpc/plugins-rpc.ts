import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** plugins.*: a thin adapter over the plugins service (installing and granting are files `claw plugins` writes). */
export function pluginsRpc(core: Core): HandlerTable {
  return {
    'plugins.list': () => ({ plugins: core.plugins.list() }),
    'plugins.reload': async () => {
      await core.plugins.reload();
      return { plugins: core.plugins.list() };
    },
    'plugins.enable': (params, caller) => core.plugins.enable(params.id, caller.clientId),
    'plugins.restart': async (params) => ({ plugin: await core.plugins.restart(params.id) }),
  };
}
