/**
 * Turns Chromium's accessibility snapshot (Playwright's `ariaSnapshot({mode:
 * 'ai'})`: YAML-like lines, `[ref=eN]` on every element) into what the model
 * reads: one line per element, refs only where it can act, capped, with
 * `[new]` on what was not there the last time it looked.
 */

export type SnapshotMode = 'interactive' | 'full';

/** Roles the agent acts on: these keep their `[ref=eN]`. */
const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
]);

/** Kept in interactive mode without a ref: what tells the model where it is. */
const CONTEXT = new Set(['heading', 'paragraph', 'text', 'dialog', 'alertdialog', 'alert', 'status', 'img', 'cell', 'listitem', 'strong', 'emphasis', 'code']);

const LONGEST_TEXT = 200;

export interface SnapshotLine {
  depth: number;
  /** `- link "Next page" [ref=e12] → /next`: what is printed. */
  text: string;
  /** What identifies the element between two snapshots (the line without its ref and `[new]`). */
  key: string;
  interactive: boolean;
}

interface RawLine {
  depth: number;
  body: string;
}

function parseRaw(aria: string): RawLine[] {
  const out: RawLine[] = [];
  for (const line of aria.split('\n')) {
    const match = /^(\s*)- (.*)$/.exec(line);
    if (match) out.push({ depth: match[1]!.length / 2, body: match[2]! });
  }
  return out;
}

function roleOf(body: string): string {
  return /^([a-z/]+)/i.exec(body)?.[1] ?? '';
}

function clipText(text: string): string {
  return text.length > LONGEST_TEXT ? `${text.slice(0, LONGEST_TEXT)}…` : text;
}

/** One element's line, tidied: no cursor noise, a link's target on the same line, long text clipped. */
function tidy(body: string, url: string | undefined, keepRef: boolean): string {
  let text = body.replace(/ \[cursor=pointer\]/g, '').replace(/:$/, '');
  if (!keepRef) text = text.replace(/ \[ref=[^\]]+\]/, '');
  const colon = /^([^"]*?(?:"(?:[^"\\]|\\.)*")?[^":]*?): (.*)$/.exec(text);
  if (colon) text = `${colon[1]}: ${clipText(colon[2]!)}`;
  return url ? `${text} → ${url}` : text;
}

/** The lines of a snapshot in `mode`: everything, or what can be acted on plus the headings and text around it. */
export function snapshotLines(aria: string, mode: SnapshotMode): SnapshotLine[] {
  const raw = parseRaw(aria);
  const out: SnapshotLine[] = [];
  // Depths of the kept ancestors, so a dropped wrapper does not leave its children indented.
  const kept: number[] = [];
  raw.forEach((line, index) => {
    const role = roleOf(line.body);
    if (role === '/url' || role.startsWith('/')) return;
    const next = raw[index + 1];
    const url = role === 'link' && next && next.depth === line.depth + 1 && next.body.startsWith('/url: ') ? next.body.slice(6) : undefined;
    const interactive = INTERACTIVE.has(role);
    const named = /"/.test(line.body) || /: ./.test(line.body);
    const keep = mode === 'full' || interactive || (CONTEXT.has(role) && named);
    while (kept.length > 0 && kept[kept.length - 1]! >= line.depth) kept.pop();
    if (!keep) return;
    const text = `- ${tidy(line.body, url, interactive || mode === 'full')}`;
    out.push({ depth: kept.length, text, key: text.replace(/ \[ref=[^\]]+\]/, ''), interactive });
    kept.push(line.depth);
  });
  return out;
}

export interface RenderedSnapshot {
  text: string;
  /** Lines not shown because of the cap. */
  cut: number;
  total: number;
  fresh: number;
}

/**
 * The lines as text within `maxChars`, marking `[new]` the ones whose key is
 * not in `seen` (when there is a previous snapshot of the same page load);
 * a cut says how much is missing and how to see it.
 */
export function renderSnapshot(lines: readonly SnapshotLine[], options: { maxChars: number; seen?: ReadonlySet<string> }): RenderedSnapshot {
  const parts: string[] = [];
  let used = 0;
  let fresh = 0;
  let shown = 0;
  for (const line of lines) {
    const isNew = options.seen !== undefined && !options.seen.has(line.key);
    const text = `${'  '.repeat(line.depth)}${line.text}${isNew ? ' [new]' : ''}`;
    if (used + text.length + 1 > options.maxChars) break;
    parts.push(text);
    used += text.length + 1;
    shown += 1;
    if (isNew) fresh += 1;
  }
  const cut = lines.length - shown;
  if (cut > 0) {
    const actionable = lines.slice(shown).filter((line) => line.interactive).length;
    parts.push(
      `[… ${cut} more lines (${actionable} actionable) cut at ${options.maxChars} characters; call browser snapshot with a larger maxChars to see them, or act on what is shown]`,
    );
  }
  return { text: parts.join('\n'), cut, total: lines.length, fresh };
}

/** What changed since the last snapshot of the same page load: the new lines, and how many went away. */
export function snapshotDelta(lines: readonly SnapshotLine[], seen: ReadonlySet<string>): { added: SnapshotLine[]; removed: number } {
  const now = new Set(lines.map((line) => line.key));
  let removed = 0;
  for (const key of seen) if (!now.has(key)) removed += 1;
  return { added: lines.filter((line) => !seen.has(line.key)), removed };
}
