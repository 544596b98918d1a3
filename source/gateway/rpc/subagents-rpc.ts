import type { Core } from '../../core/index.js';
import { ClawError } from '../../protocol/index.js';
import { SpawnError, SubagentNotFound } from '../../subagents/index.js';
import type { HandlerTable } from '../module.js';

async function asClawError<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SpawnError) throw new ClawError('bad_request', error.message);
    if (error instanceof SubagentNotFound) throw new ClawError('not_found', error.message);
    throw error;
  }
}

/** subagents.*: thin adapters over the core's subagents service (the operator may act on any child). */
export function subagentsRpc(core: Core): HandlerTable {
  const { subagents } = core;
  return {
    'subagents.list': (params) => ({ nodes: subagents.list(params?.parentKey) }),
    'subagents.cancel': (params) => asClawError(() => subagents.cancel(params.id)),
    'subagents.steer': (params) => asClawError(() => subagents.steer(params.id, params.message)),
  };
}
