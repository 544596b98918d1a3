import type { TuiState } from '../store/state.js';
import type { Completion } from './registry.js';

const MENTION_AT_END = /(^|\s)@(\S*)$/;

/**
 * Completion of an `@server:uri` mention being typed at the end of the
 * input, from the resources the connected MCP servers list. Undefined when
 * the last word is not a mention, so slash-command completion applies.
 */
export function mentionCompletions(text: string, state: TuiState): Completion[] | undefined {
  const match = MENTION_AT_END.exec(text);
  if (!match || text.startsWith('/')) return undefined;
  const typed = match[2]!.toLowerCase();
  const before = text.slice(0, text.length - typed.length - 1);
  return (state.mcp?.resources ?? [])
    .map((resource) => ({ mention: `@${resource.server}:${resource.uri}`, resource }))
    .filter(({ mention }) => mention.slice(1).toLowerCase().startsWith(typed) || (typed !== '' && mention.toLowerCase().includes(typed)))
    .slice(0, 20)
    .map(({ mention, resource }) => ({ value: `${before}${mention} `, label: mention, description: resource.name }));
}
