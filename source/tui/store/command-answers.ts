import { keepNewest } from './history-window.js';
import type { ChatItem, ChatLog } from './state.js';

/** Chat id of a session-reset notice; the reset clears the chat, echo included. */
export const RESET_NOTICE_PREFIX = 'reset:';

/**
 * Puts a command's answer under its echo, after earlier answers to it, so what
 * arrived while the command ran (the failure of the turn /retry started) reads
 * after the answer instead of above it. When the echo is gone because the
 * command reset the chat (/new, /reset), the reset notice is the answer and
 * the reply is dropped; when it scrolled out of memory the answer is appended.
 */
export function placeAnswer(log: ChatLog, echoId: string, item: ChatItem): ChatLog {
  const at = log.items.findIndex((i) => i.id === echoId);
  if (at < 0) {
    if (log.items[0]?.id.startsWith(RESET_NOTICE_PREFIX)) return log;
    return keepNewest({ ...log, items: [...log.items, item] });
  }
  let end = at + 1;
  while (end < log.items.length && log.items[end]!.id.startsWith(`${echoId}:`)) end++;
  return keepNewest({ ...log, items: [...log.items.slice(0, end), { ...item, id: `${echoId}:${item.id}` }, ...log.items.slice(end)] });
}
