import type { ChatItem } from './state.js';

/**
 * A sub-agent's report reaches its parent session as a message for the model
 * (`subagents/messages.ts`): a head line, one `--- "label" · status · time ·
 * N tokens · run ID (child)` section per child, and a closing sentence only
 * the model needs. The chat shows each child as a collapsed block instead.
 */
const HEAD = /^\[subagent_result\] (?:a child run reported:|\d+ child runs reported \(in the order they finished\):)\n/;
const SECTION = /^--- "(.*)" \u00b7 (\S+) \u00b7 (.+?) \u00b7 (\d+) tokens \u00b7 run (\S+) \((.+)\)$/;
const MODEL_ONLY = /\n*These results are not visible to the user yet: use them to continue the task\.\s*$/;

export function childResultItems(text: string, id: string, entryId?: string): ChatItem[] | undefined {
  if (!HEAD.test(text)) return undefined;
  const lines = text.replace(HEAD, '').replace(MODEL_ONLY, '').split('\n');
  const items: ChatItem[] = [];
  let current: { header: RegExpExecArray; body: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    const [, label, status, duration, tokens] = current.header;
    items.push({
      kind: 'tool',
      id: `${id}:child:${items.length}`,
      ...(entryId ? { entryId } : {}),
      name: `sub-agent "${label}"`,
      args: `${status} · ${duration} · ${tokens} tokens`,
      output: current.body.join('\n').trim(),
      status: status === 'done' ? 'done' : 'error',
    });
  };
  for (const line of lines) {
    const header = SECTION.exec(line);
    if (header) {
      flush();
      current = { header, body: [] };
    } else current?.body.push(line);
  }
  flush();
  return items.length > 0 ? items : undefined;
}
