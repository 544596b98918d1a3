import { PairingError } from '../../channels/index.js';
import type { Core } from '../../core/index.js';
import { ClawError } from '../../protocol/index.js';
import type { HandlerTable } from '../module.js';

/** A code that is not pending is the caller's to fix. */
async function asClawError<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof PairingError) throw new ClawError('not_found', error.message);
    throw error;
  }
}

/** channels.* and pairing.*: thin adapters over the channels service. */
export function channelsRpc(core: Core): HandlerTable {
  const { channels } = core;
  return {
    'channels.status': () => ({ channels: channels.status() }),
    'pairing.list': () => channels.listPairings(),
    'pairing.approve': (params) => asClawError(() => channels.approvePairing(params.code, { owner: params.owner === true })),
    'pairing.deny': (params) => asClawError(() => ({ denied: channels.denyPairing(params.code) })),
  };
}
