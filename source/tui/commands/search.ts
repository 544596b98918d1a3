import { openSearch } from '../search-keys.js';
import type { SlashCommand } from './types.js';

export const searchCommand: SlashCommand = {
  quiet: true,
  name: 'search',
  aliases: ['find'],
  args: '[text]',
  description: "Search every session's transcript (Ctrl+F); Enter jumps, n/N next/previous",
  async run(args, context) {
    const query = args.trim();
    openSearch(context, query);
    if (query) await context.controller.search(query);
  },
};
