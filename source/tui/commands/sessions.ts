import { shortSessionKey } from '../text/format.js';
import type { SlashCommand } from './types.js';

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  aliases: ['s'],
  args: '[key]',
  description: 'Switch to a session, or focus the sessions pane',
  complete: (partial, { store }) => Object.keys(store.getState().sessions).filter((k) => k.startsWith(partial) || shortSessionKey(k).startsWith(partial)),
  async run(args, { controller, store }) {
    const key = args.trim();
    if (key) {
      const match = Object.keys(store.getState().sessions).find((k) => k === key || shortSessionKey(k) === key) ?? key;
      await controller.switchSession(match);
      return;
    }
    store.update((s) => ({ ...s, ui: { ...s.ui, focus: 'sessions', hidden: s.ui.hidden.filter((p) => p !== 'sessions') } }));
  },
};
