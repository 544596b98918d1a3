import { describe, expect, it } from 'vitest';
import { appendItems } from '../../source/tui/store/chat-reducer.js';
import { appendNewer, prependOlder } from '../../source/tui/store/history-window.js';
import { CHAT_WINDOW, emptyChat, type ChatItem, type ChatLog } from '../../source/tui/store/state.js';

const message = (n: number): ChatItem => ({ kind: 'assistant', id: `e${n}`, entryId: `e${n}`, text: `m${n}` });
const range = (from: number, to: number): ChatItem[] => Array.from({ length: to - from }, (_, i) => message(from + i));
const twoRows = (): number => 2;

describe('cutting and refilling the chat window', () => {
  it('lets the newest paged items go when paging back, keeps what arrived live, and puts both back in order on the way down', () => {
    const start: ChatLog = { ...emptyChat(), items: range(1000, 1000 + CHAT_WINDOW), hasMore: true };
    const { log: paged, droppedLines } = prependOlder(start, range(800, 1000), true, twoRows);
    expect(paged.items).toHaveLength(CHAT_WINDOW);
    expect(paged.items[0]).toMatchObject({ text: 'm800' });
    expect(paged.oldestEntryId).toBe('e800');
    // 200 items of two rows left below the view, less the gap marker's row.
    expect(droppedLines).toBe(200 * 2 - 1);
    expect(paged.newer).toEqual({ after: 'e1299', before: ['e1300'] });

    // A notice while paged back stays in memory, after the gap.
    const withNotice = appendItems(paged, [{ kind: 'notice', id: 'notice:1', text: 'rule written' }]);
    expect(withNotice.items.at(-1)).toMatchObject({ id: 'notice:1' });

    // The page after the gap (here the newest, entries 1300..1499) closes it: notice last, messages contiguous.
    const { log: refilled, addedLines } = appendNewer(withNotice, range(1300, 1500), true, twoRows);
    expect(refilled.newer).toBeUndefined();
    expect(addedLines).toBe(200 * 2 - 1);
    expect(refilled.items.at(-1)).toMatchObject({ id: 'notice:1' });
    const numbers = refilled.items.flatMap((i) => ('text' in i && /^m\d+$/.test(i.text) ? [Number(i.text.slice(1))] : []));
    expect(numbers.at(-1)).toBe(1499);
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
    expect(refilled.items.length).toBeLessThanOrEqual(CHAT_WINDOW);
    expect(refilled.oldestEntryId).toBe(refilled.items[0]!.entryId);
  });

  it('marks each cut so the regions come back nearest first, the last one from the newest page', () => {
    let log: ChatLog = { ...emptyChat(), items: range(1000, 1500), hasMore: true };
    log = prependOlder(log, range(800, 1000), true, twoRows).log;
    log = prependOlder(log, range(600, 800), true, twoRows).log;
    // Two regions let go: 1100..1299 (fetched before e1300), then 1300..1499 (the newest page).
    expect(log.newer).toEqual({ after: 'e1099', before: ['e1100', 'e1300'] });
    const first = appendNewer(log, range(1100, 1300), false, twoRows).log;
    expect(first.newer).toEqual({ after: 'e1299', before: ['e1300'] });
  });
});
