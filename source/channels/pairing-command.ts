import type { Clock } from '../config/index.js';
import type { SlashCommand } from '../agent/index.js';
import { ClawError } from '../protocol/index.js';
import type { ApprovedSender, PendingPairing } from './pairing-store.js';
import { PairingError } from './pairing-store.js';

/** What `/pairing` needs of the channels service. */
export interface PairingCommandHost {
  /** Empty before the channels service has started. */
  pendingPairings(): PendingPairing[];
  approvePairing(code: string, options?: { owner?: boolean }): Promise<{ approved: ApprovedSender; told: boolean; replaced?: string }>;
  denyPairing(code: string): PendingPairing;
}

const who = (p: { senderName?: string | undefined; senderId: string; channel: string; accountId: string }): string =>
  `${p.senderName ?? p.senderId} (${p.channel}:${p.accountId}, id ${p.senderId})`;

function minutesLeft(expiresAt: number, now: number): string {
  return `${Math.max(0, Math.ceil((expiresAt - now) / 60_000))} min left`;
}

async function answered<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof PairingError) throw new ClawError('not_found', `${error.message} \`/pairing\` lists the pending codes.`);
    throw error;
  }
}

/**
 * `/pairing` in the one command registry: the pending codes, `approve CODE`
 * (the sender may talk to the agent and is told) and `reject CODE`. Answering
 * a code needs admin: an operator client's token, or the owner in a chat.
 */
export function createPairingSlashCommand(host: PairingCommandHost, clock: Pick<Clock, 'now'>): SlashCommand {
  return {
    name: 'pairing',
    ownerOnly: true,
    aliases: [],
    args: '[approve CODE | reject CODE]',
    description: 'Pairing codes of senders waiting for an answer; `/pairing approve CODE` lets one talk to the agent, `/pairing reject CODE` refuses.',
    argument: () => {
      const pending = host.pendingPairings();
      return [
        {
          name: 'action',
          required: false,
          values: [
            { value: 'approve', description: 'let the sender talk to the agent' },
            { value: 'reject', description: 'refuse the sender' },
          ],
        },
        { name: 'code', required: false, values: pending.map((p) => ({ value: p.code, description: who(p) })) },
      ];
    },
    async run({ args }) {
      const [action, code, ...rest] = args.split(/\s+/).filter(Boolean);
      if (!action || action === 'list') {
        const pending = host.pendingPairings();
        if (pending.length === 0) return { reply: 'No pairing code is waiting for an answer.', data: { pending } };
        const lines = pending.map((p) => `${p.code}  ${who(p)} · ${minutesLeft(p.expiresAt, clock.now())}`);
        return { reply: [...lines, 'Answer with /pairing approve CODE or /pairing reject CODE.'].join('\n'), data: { pending } };
      }
      if (action !== 'approve' && action !== 'reject') {
        throw new ClawError('bad_request', `Unknown /pairing action "${action}". Use /pairing, /pairing approve CODE or /pairing reject CODE.`);
      }
      const asOwner = action === 'approve' && rest.length === 1 && rest[0] === '--owner';
      if (!code || (rest.length > 0 && !asOwner))
        throw new ClawError('bad_request', `Usage: /pairing ${action} CODE${action === 'approve' ? ' [--owner]' : ''} (\`/pairing\` lists the pending codes).`);
      const upper = code.toUpperCase();
      if (action === 'reject') {
        const denied = await answered(() => host.denyPairing(upper));
        return { reply: `Rejected ${upper}: ${who(denied)} was refused and gets no answer.`, data: { denied } };
      }
      const result = await answered(() => host.approvePairing(upper, { owner: asOwner }));
      const role = result.approved.owner ? ` as the owner${result.replaced ? ` (replacing ${result.replaced})` : ''}` : '';
      const told = result.told ? 'they were told in their chat' : 'but the message telling them could not be sent (see `claw channels status`)';
      return { reply: `Approved ${who(result.approved)}${role}; ${told}.`, data: result };
    },
  };
}
