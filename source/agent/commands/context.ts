import { randomUUID } from 'node:crypto';
import { ClawError } from '../../protocol/index.js';
import { compactionHistory, contextEventPayload } from '../context/index.js';
import { formatContextDetail, formatContextList } from './context-format.js';
import type { SlashCommand } from './types.js';

const views = ['list', 'detail', 'json'] as const;

export const contextCommand: SlashCommand = {
  name: 'context',
  aliases: [],
  args: '[list|detail|json]',
  description: 'What fills the context window: prompt parts, bootstrap files, tools, history, tokens used.',
  async run({ sessionKey, args, host, contextWindow, contextReport }) {
    const view = (args || 'list').toLowerCase();
    if (!views.includes(view as (typeof views)[number]))
      throw new ClawError('bad_request', `Unknown view "${args}". Use /context list, /context detail or /context json.`);
    const session = await host.turnSession(sessionKey);
    const window = await contextWindow(session, `context-${randomUUID()}`);
    if (!window)
      throw new ClawError(
        'unavailable',
        'No model is configured, so the context window is unknown. Configure a provider (claw models list), then run /context again.',
      );
    // Publishing it brings every client's context pane up to date too.
    const [report, account] = await Promise.all([contextReport(session), window.report()]);
    const compactions = compactionHistory(session.entries());
    const data = { sessionKey, report, account, compactions, event: contextEventPayload(sessionKey, account, compactions) };
    if (view === 'json') return { reply: JSON.stringify(data, null, 2), data };
    return { reply: view === 'detail' ? formatContextDetail(account, compactions) : formatContextList(report, account, compactions), data };
  },
};
