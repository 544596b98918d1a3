import { ClawError, type MethodName, type ParamsOf, type ResultOf, type TranscriptEntry } from '../protocol/index.js';
import { updateChat } from './store/chat-reducer.js';
import { entriesToItems, prependHistory } from './store/history.js';
import { appendNewer, prependOlder, type LineCount } from './store/history-window.js';
import { selectChat } from './store/selectors.js';
import type { TuiStore } from './store/store.js';
import { setUi } from './ui-actions.js';

/** Transcript entries fetched per page. */
const HISTORY_PAGE = 200;
/** Pages fetched at most to refill one gap below the window (a page of items can span several of entries). */
const MAX_GAP_PAGES = 10;

/** What the loader needs of the controller: its RPC (which explains a missing method) and its error notice. */
export interface HistoryRpc {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  serves(method: MethodName): boolean;
  error(error: unknown, hint: string, key: string): void;
}

/**
 * The chat's window over a session's transcript: the newest page, older pages
 * in front of it, and the pages let go behind a window paged far back, fetched
 * again on the way down (store/history-window.ts holds the pure part).
 */
export class HistoryLoader {
  /** History fetches under way, by session and direction: a second ask waits for the first. */
  private readonly loading = new Map<string, Promise<void>>();
  /** Rows an item draws in the chat pane, as the pane last reported; keeps the view still when the window is cut. */
  lineCount: LineCount = () => 1;

  constructor(
    private readonly store: TuiStore,
    private readonly rpc: HistoryRpc,
  ) {}

  /** The newest page (replacing a window paged far back), or the page before the oldest item in memory. */
  load(key: string, older: boolean): Promise<void> {
    return this.once(`${key}\0${older ? 'older' : 'newest'}`, () => this.fetchHistory(key, older));
  }

  private once(flight: string, run: () => Promise<void>): Promise<void> {
    const running = this.loading.get(flight);
    if (running) return running;
    const done = run().finally(() => this.loading.delete(flight));
    this.loading.set(flight, done);
    return done;
  }

  private async fetchHistory(key: string, older: boolean): Promise<void> {
    if (!this.rpc.serves('sessions.history')) return;
    const log = selectChat(this.store.getState(), key);
    if (older && !log.hasMore) return;
    // Decided now, not when the page lands: a message sent and answered while the
    // page loads must not turn a first load into a reload that drops it.
    const shown = older || !log.items.some((i) => i.entryId) ? undefined : new Set(log.items.map((i) => i.id));
    try {
      const beforeId = older ? (log.oldestEntryId ?? log.items.find((i) => i.entryId)?.entryId) : undefined;
      const page = await this.rpc.call('sessions.history', { key, limit: HISTORY_PAGE, ...(beforeId ? { beforeId } : {}) });
      const items = entriesToItems(page.entries);
      if (older) {
        let dropped = 0;
        this.store.update((s) => {
          const next = updateChat(s, key, (current) => {
            const result = prependOlder(current, items, page.hasMore, this.lineCount);
            dropped = result.droppedLines;
            return result.log;
          });
          return dropped !== 0 && next.currentKey === key ? setUi(next, { scroll: Math.max(0, next.ui.scroll - dropped) }) : next;
        });
        return;
      }
      // Live items that arrived while the page loaded stay after it; a reload after
      // a reconnect replaces what was shown before it with the gateway's transcript
      // (and a window paged far back is replaced by the newest page).
      this.store.update((s) =>
        updateChat(s, key, (current) => {
          const { newer, ...rest } = current;
          const live = newer ? rest.items.slice(rest.items.findIndex((i) => i.id === newer.after) + 1) : rest.items;
          return prependHistory(shown ? { ...rest, items: live.filter((i) => !shown.has(i.id)) } : { ...rest, items: live }, items, page.hasMore);
        }),
      );
    } catch (error) {
      if (!(error instanceof ClawError && error.code === 'not_found')) this.rpc.error(error, 'Scroll up again to retry.', key);
    }
  }

  /** Fetches what lies between the paged part of the window and the next mark (or the newest entry) and puts it back. */
  loadNewer(key: string): Promise<void> {
    return this.once(`${key}\0newer`, () => this.fetchNewer(key));
  }

  private async fetchNewer(key: string): Promise<void> {
    const log = selectChat(this.store.getState(), key);
    const gap = log.newer;
    if (!gap || !this.rpc.serves('sessions.history')) return;
    const at = log.items.findIndex((i) => i.id === gap.after);
    const lastPaged = log.items
      .slice(0, at + 1)
      .reverse()
      .find((i) => i.entryId)?.entryId;
    const until = gap.before[1];
    try {
      // Paged backwards from the mark until the window's last entry shows up.
      let entries: TranscriptEntry[] = [];
      let cursor = until;
      for (let pages = 0; pages < MAX_GAP_PAGES; pages++) {
        const page = await this.rpc.call('sessions.history', { key, limit: HISTORY_PAGE, ...(cursor ? { beforeId: cursor } : {}) });
        entries = page.entries.concat(entries);
        const joined = lastPaged ? entries.findIndex((e) => e.id === lastPaged) : -1;
        if (joined >= 0) {
          entries = entries.slice(joined + 1);
          break;
        }
        if (!page.hasMore || page.entries.length === 0) break;
        cursor = page.entries[0]!.id;
      }
      const items = entriesToItems(entries);
      let added = 0;
      this.store.update((s) => {
        const next = updateChat(s, key, (current) => {
          if (current.newer?.after !== gap.after) return current;
          const result = appendNewer(current, items, until === undefined, this.lineCount);
          added = result.addedLines;
          return result.log;
        });
        return added !== 0 && next.currentKey === key && next.ui.scroll > 0 ? setUi(next, { scroll: Math.max(0, next.ui.scroll + added) }) : next;
      });
    } catch (error) {
      this.rpc.error(error, 'Scroll down again to retry.', key);
    }
  }
}
