import { statePaths } from '../../config/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = `Usage:
  claw pairing [list] [--json]     codes unknown senders were given, and the senders approved so far
  claw pairing approve CODE [--owner]  let that sender talk to the agent (they are told); --owner also makes them the account's owner
  claw pairing deny CODE           refuse the code`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw pairing: ${text}\n`);
  return code;
}

export const run: CommandRun = async ({ args, flags }) => {
  const [action = 'list', code] = args;
  const { connectLocal } = await import('../../client/index.js');
  if (action !== 'list' && action !== 'approve' && action !== 'deny') return fail(`unknown action "${action}"\n${usage}`);
  if (action !== 'list' && !code) return fail(`${action} needs the 8-character code the sender was given\n${usage}`);
  let client: Awaited<ReturnType<typeof connectLocal>>;
  try {
    client = await connectLocal(statePaths());
  } catch (error) {
    return fail((error as Error).message, 1);
  }
  try {
    if (action === 'list') {
      const list = await client.request('pairing.list', {});
      if (flags.json) printJson(list);
      else {
        if (list.pending.length === 0) process.stdout.write('No pairing code is waiting.\n');
        for (const p of list.pending) {
          const minutes = Math.max(0, Math.round((p.expiresAt - Date.now()) / 60_000));
          process.stdout.write(`${p.code}  ${p.channel}:${p.accountId}  ${p.senderName ?? p.senderId} (${p.senderId})  expires in ${minutes} min\n`);
        }
        for (const a of list.approved)
          process.stdout.write(`approved  ${a.channel}:${a.accountId}  ${a.senderName ?? a.senderId} (${a.senderId})${a.owner ? '  owner' : ''}\n`);
      }
      return 0;
    }
    if (action === 'approve') {
      const result = await client.request('pairing.approve', { code: code!, ...(flags.owner ? { owner: true } : {}) });
      if (flags.json) printJson(result);
      else
        process.stdout.write(
          `Approved ${result.approved.senderName ?? result.approved.senderId}${result.approved.owner ? ` as the owner${result.replaced ? ` (replacing ${result.replaced})` : ''}` : ''}; ${result.told ? 'they were told' : 'telling them failed (see `claw channels status`)'}.\n`,
        );
      return 0;
    }
    const result = await client.request('pairing.deny', { code: code! });
    if (flags.json) printJson(result);
    else process.stdout.write(`Denied ${result.denied.code} (${result.denied.senderName ?? result.denied.senderId}).\n`);
    return 0;
  } catch (error) {
    return fail((error as Error).message, 1);
  } finally {
    client.close();
  }
};
