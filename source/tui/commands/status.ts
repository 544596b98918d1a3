import { formatDuration, formatTokens } from '../text/format.js';
import { selectCurrentSession, selectFooter } from '../store/selectors.js';
import type { SlashCommand } from './types.js';

export const statusCommand: SlashCommand = {
  name: 'status',
  aliases: [],
  args: '',
  description: 'Gateway and session status',
  async run(_args, { controller, store }) {
    const status = await controller.call('status');
    const state = store.getState();
    const session = selectCurrentSession(state);
    const footer = selectFooter(state);
    const lines = [
      `gateway v${status.version} on ${status.host} · pid ${status.pid} · ${status.bind}:${status.port} · up ${formatDuration(status.uptimeMs)} · ${status.clients.length} client(s)`,
      `session ${state.currentKey}${session ? ` · ${session.sessionId}` : ''} · model ${footer.model} · thinking ${footer.thinking}`,
      `context ${formatTokens(footer.used)}${footer.window ? ` / ${formatTokens(footer.window)}` : ''} tokens · pending approvals ${footer.pendingApprovals}`,
    ];
    if (controller.serves('commands.run')) {
      const { reply } = await controller.call('commands.run', { sessionKey: state.currentKey, text: '/status' });
      if (reply.trim() !== '') lines.push(reply);
    }
    controller.notice(lines.join('\n'));
  },
};
