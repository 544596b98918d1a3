import type { Key } from 'ink';
import { isForwardDelete } from './editor/keys.js';
import type { KeyContext } from './keymap.js';
import { pickerSessions } from './store/session-picker.js';
import { setUi } from './ui-actions.js';

/** Keys of the /sessions picker: typing filters (fuzzy), ↑/↓ choose, Enter switches, Esc closes. */
export function handleSessionPickerKey(input: string, key: Key, context: KeyContext, raw?: string): void {
  const { store, controller } = context;
  const state = store.getState();
  const picker = state.ui.sessionPicker!;
  const rows = pickerSessions(state, picker.filter);
  const close = (): void => store.update((s) => setUi(s, { sessionPicker: undefined }));
  if (key.escape) return close();
  if (key.upArrow || key.downArrow) {
    if (rows.length === 0) return;
    const index = (picker.index + (key.upArrow ? -1 : 1) + rows.length) % rows.length;
    return store.update((s) => setUi(s, { sessionPicker: { ...picker, index } }));
  }
  if (key.return) {
    const chosen = rows[Math.min(picker.index, rows.length - 1)];
    close();
    if (chosen) void controller.switchSession(chosen.key);
    return;
  }
  if (key.backspace || (key.delete && !isForwardDelete(raw))) {
    return store.update((s) => setUi(s, { sessionPicker: { filter: [...picker.filter].slice(0, -1).join(''), index: 0 } }));
  }
  if (key.ctrl || key.meta || key.tab || input === '' || /[\r\n]/.test(input)) return;
  store.update((s) => setUi(s, { sessionPicker: { filter: picker.filter + input, index: 0 } }));
}
