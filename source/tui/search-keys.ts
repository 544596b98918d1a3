import type { Key } from 'ink';
import { isForwardDelete } from './editor/keys.js';
import type { KeyContext } from './keymap.js';
import type { SearchUi } from './store/state.js';
import { setUi } from './ui-actions.js';

/** Ctrl+F: an empty query line above the input; Enter searches every session. */
export function openSearch({ store }: Pick<KeyContext, 'store'>, query = ''): void {
  store.update((s) => setUi(s, { search: { query, editing: true, status: 'idle', hits: [], index: 0 } }));
}

function patchSearch(context: KeyContext, change: Partial<SearchUi>): void {
  context.store.update((s) => (s.ui.search ? setUi(s, { search: { ...s.ui.search, ...change } }) : s));
}

/**
 * Keys while search is open. Typing edits the query until Enter; then ↑/↓
 * choose a hit, Enter or n/N jump to it (n next, N previous), `/` edits the
 * query again and Esc closes.
 */
export function handleSearchKey(input: string, key: Key, context: KeyContext, raw?: string): void {
  const search = context.store.getState().ui.search!;
  if (key.escape) return context.store.update((s) => setUi(s, { search: undefined }));
  if (search.editing) {
    if (key.return) {
      if (search.query.trim() !== '') void context.controller.search(search.query);
      return;
    }
    if (key.backspace || (key.delete && !isForwardDelete(raw))) return patchSearch(context, { query: [...search.query].slice(0, -1).join('') });
    if (key.ctrl && input === 'u') return patchSearch(context, { query: '' });
    if (key.ctrl || key.meta || key.tab || input === '' || /[\r\n]/.test(input)) return;
    return patchSearch(context, { query: search.query + input });
  }
  const count = search.hits.length;
  if (count === 0) {
    if (input === '/' || key.return) patchSearch(context, { editing: true });
    return;
  }
  const step = (delta: number): number => (search.index + delta + count) % count;
  if (key.upArrow || key.downArrow) return patchSearch(context, { index: step(key.upArrow ? -1 : 1) });
  if (key.return) return void context.controller.jumpToHit(search.index);
  if (input === 'n' || input === 'N') {
    const index = step(input === 'n' ? 1 : -1);
    patchSearch(context, { index });
    return void context.controller.jumpToHit(index);
  }
  if (input === '/') patchSearch(context, { editing: true });
}
