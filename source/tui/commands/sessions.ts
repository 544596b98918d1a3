import { shortSessionKey } from '../text/format.js';
import type { SlashCommand } from './types.js';

export const sessionsCommand: SlashCommand = {
  quiet: true,
  name: 'sessions',
  aliases: ['s'],
  args: '[key]',
  description: 'Switch to a session, or pick one (fuzzy filter, last activity, first line)',
  complete: (partial, { store }) => Object.keys(store.getState().sessions).filter((k) => k.startsWith(partial) || shortSessionKey(k).startsWith(partial)),
  async run(args, { controller, store }) {
    const key = args.trim();
    if (key) {
      const match = Object.keys(store.getState().sessions).find((k) => k === key || shortSessionKey(k) === key) ?? key;
      await controller.switchSession(match);
      return;
    }
    if (controller.serves('sessions.list')) {
      const { sessions } = await controller.call('sessions.list', {});
      store.update((s) => ({ ...s, sessions: Object.fromEntries(sessions.map((x) => [x.key, x])) }));
    }
    store.update((s) => ({ ...s, ui: { ...s.ui, sessionPicker: { filter: '', index: 0 } } }));
  },
};
