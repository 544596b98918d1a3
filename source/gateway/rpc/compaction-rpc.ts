import type { Core } from '../../core/index.js';
import type { HandlerTable } from '../module.js';

/** compaction.decide: an answer to an automatic compaction's preview. */
export function compactionRpc(core: Core): HandlerTable {
  return {
    'compaction.decide': (params, caller) => core.compactionPreviews.decide(params.id, params.decision, caller.clientId),
  };
}
