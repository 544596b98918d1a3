/** Every key the TUI binds, declared once: /help, `?` and the README list come from here. */
export const KEY_HELP: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: 'Enter', does: 'send (Alt+Enter or Ctrl+J: newline)' },
  { keys: 'Esc', does: 'abort the running turn; close a popup' },
  { keys: 'Ctrl+C', does: 'clear the input; twice within 2 s quits' },
  { keys: 'Backspace / Delete', does: 'delete before / after the cursor (Alt+Backspace, Ctrl+W: word)' },
  { keys: '←/→, Ctrl+←/→, Alt+B/F', does: 'move by character or word; Home/End or Ctrl+A/E: line' },
  { keys: 'Ctrl+U / Ctrl+K', does: 'delete to the start / end of the line' },
  { keys: '↑/↓', does: 'move between lines of the draft; history from the first/last line' },
  { keys: 'Ctrl+R', does: 'search history (again: older match, Enter: take it)' },
  { keys: 'Ctrl+G, Ctrl+X Ctrl+E', does: 'edit the draft in $EDITOR' },
  { keys: 'Ctrl+F, /search', does: 'search every session; Enter jump, n/N next/previous' },
  { keys: '/sessions', does: 'pick a session (type to filter)' },
  { keys: 'PgUp/PgDn', does: 'scroll the chat (Home/End on an empty input: top/bottom)' },
  { keys: 'Tab', does: 'focus the next pane (completes while the / popup is open)' },
  { keys: 'Shift+Tab', does: "this session's mode: ask → auto-edit (sandboxed commands unasked) → plan (no side effects)" },
  { keys: 'Alt+S/L/C/A/J', does: 'show or hide sessions, lanes, context, sub-agents, schedule' },
  { keys: 'c / p / r', does: 'while a compaction is previewed (input empty): compact now, postpone it, details' },
  { keys: 'Ctrl+L', does: 'show every pane (again: only those with content)' },
  { keys: 'z / h (side pane)', does: 'zoom / hide the focused pane' },
  { keys: '↑↓ Enter c s (sub-agents)', does: 'pick a child; open its transcript read-only (Esc back), cancel it, steer it' },
  { keys: 'Ctrl+O', does: 'expand tool output' },
  { keys: 'Alt+M', does: 'show replies as their Markdown source (again: rendered)' },
  { keys: 'y s a n (approval)', does: 'once, this session, always (then y), deny; a pause first, Esc leaves it pending' },
];

export function keyHelpLines(): string[] {
  const width = Math.max(...KEY_HELP.map((k) => k.keys.length));
  return KEY_HELP.map((k) => `${k.keys.padEnd(width)}  ${k.does}`);
}
