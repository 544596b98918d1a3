import { CHAT_WINDOW, type ChatItem, type ChatLog } from './state.js';

/** Rows an item draws at the chat's current width, so a window cut keeps the view where it was. */
export type LineCount = (item: ChatItem) => number;

/** The log with its oldest items cut to `limit`; `oldestEntryId` follows the cut so paging back resumes there. */
export function keepNewest(log: ChatLog, limit = CHAT_WINDOW): ChatLog {
  if (log.items.length <= limit) return log;
  const items = log.items.slice(log.items.length - limit);
  const next: ChatLog = { ...log, items, hasMore: true };
  const first = items.find((item) => item.entryId)?.entryId;
  if (first) next.oldestEntryId = first;
  else delete next.oldestEntryId;
  // Every item of the part left behind the gap is gone: what remains is the live tail.
  if (next.newer && !items.some((item) => item.id === next.newer!.after)) delete next.newer;
  return next;
}

/** Where the part of the window that came from paging ends (the gap), and what follows it live. */
function splitAtGap(log: ChatLog): { paged: ChatItem[]; live: ChatItem[] } {
  const at = log.newer ? log.items.findIndex((item) => item.id === log.newer!.after) : -1;
  if (at < 0) return { paged: log.items, live: [] };
  return { paged: log.items.slice(0, at + 1), live: log.items.slice(at + 1) };
}

function withoutSeen(page: ChatItem[], kept: readonly ChatItem[]): ChatItem[] {
  const seen = new Set(kept.flatMap((item) => (item.entryId ? [item.id, item.entryId] : [item.id])));
  return page.filter((item) => !seen.has(item.id) && !(item.kind === 'assistant' && item.entryId && seen.has(item.entryId)));
}

/**
 * Puts an older page in front of the window. Past CHAT_WINDOW the newest paged
 * items are let go (the live ones after a gap stay: they may exist nowhere
 * else), with the transcript entry ids needed to fetch them again when the
 * view comes back down; `droppedLines` is what the view must scroll by to stay
 * on the same text.
 */
export function prependOlder(log: ChatLog, older: ChatItem[], hasMore: boolean, lines: LineCount): { log: ChatLog; droppedLines: number } {
  const { paged, live } = splitAtGap(log);
  const fresh = withoutSeen(older, log.items);
  let kept = fresh.concat(paged);
  let droppedLines = 0;
  let newer = log.newer;
  const room = Math.max(older.length, CHAT_WINDOW - live.length);
  if (kept.length > room) {
    const dropped = kept.slice(room);
    kept = kept.slice(0, room);
    for (const item of dropped) droppedLines += lines(item);
    // Fetching "the entries before the first dropped one" brings back exactly
    // what lies between the window and it; the marks further down stay for later.
    const mark = dropped.find((item) => item.entryId)?.entryId;
    const last = kept.at(-1);
    if (last) newer = { after: last.id, before: mark ? [mark, ...(newer?.before ?? [])] : (newer?.before ?? []) };
  }
  const next: ChatLog = { ...log, items: kept.concat(live), hasMore };
  if (newer) next.newer = newer;
  // A gap opening below the view adds its marker row there.
  if (newer && !log.newer) droppedLines -= 1;
  const first = kept.find((item) => item.entryId)?.entryId;
  if (first) next.oldestEntryId = first;
  return { log: next, droppedLines };
}

/**
 * Puts the page that follows the paged part of the window after it, in front of
 * the live tail. `reachedNewest` closes the gap; otherwise the next mark is
 * where the following page ends. Oldest items beyond CHAT_WINDOW are let go;
 * `addedLines` is what the view must scroll by to stay on the same text.
 */
export function appendNewer(log: ChatLog, page: ChatItem[], reachedNewest: boolean, lines: LineCount): { log: ChatLog; addedLines: number } {
  if (!log.newer) return { log, addedLines: 0 };
  const { paged, live } = splitAtGap(log);
  const fresh = withoutSeen(page, paged);
  const tail = reachedNewest ? live.filter((item) => !fresh.some((f) => f.id === item.id || (item.entryId && f.entryId === item.entryId))) : live;
  let addedLines = 0;
  for (const item of fresh) addedLines += lines(item);
  const next: ChatLog = { ...log, items: paged.concat(fresh, tail) };
  const last = fresh.at(-1) ?? paged.at(-1);
  if (reachedNewest || !last) {
    delete next.newer;
    addedLines -= 1;
  } else next.newer = { after: last.id, before: log.newer.before.slice(1) };
  return { log: keepNewest(next), addedLines };
}
