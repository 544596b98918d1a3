import { reducePendingList } from '../store/reducers.js';
import type { SlashCommand } from './types.js';

export const approvalsCommand: SlashCommand = {
  quiet: true,
  name: 'approvals',
  aliases: [],
  args: '',
  description: 'Reload pending approval requests and answer them',
  async run(_args, { controller, store }) {
    const { approvals } = await controller.call('approvals.list', { status: 'pending' });
    store.update((s) => reducePendingList({ ...s, ui: { ...s.ui, dismissed: [] } }, approvals));
    if (store.getState().approvals.pending.length === 0) controller.notice('No approval requests are pending.');
  },
};
