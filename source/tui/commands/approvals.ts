import type { SlashCommand } from './types.js';

export const approvalsCommand: SlashCommand = {
  name: 'approvals',
  aliases: [],
  args: '',
  description: 'Reload pending approval requests and answer them',
  async run(_args, { controller, store }) {
    const { approvals } = await controller.call('approvals.list', { status: 'pending' });
    const pending = approvals.filter((a) => a.status === 'pending');
    store.update((s) => ({ ...s, approvals: { ...s.approvals, pending }, ui: { ...s.ui, dismissed: [] } }));
    if (pending.length === 0) controller.notice('No approval requests are pending.');
  },
};
