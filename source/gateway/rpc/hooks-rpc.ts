import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** hooks.*: a thin adapter over the hooks service. */
export function hooksRpc(core: Core): HandlerTable {
  return {
    'hooks.list': () => core.hooks.status(),
  };
}
