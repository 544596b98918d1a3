import type { Locator } from 'playwright-core';
import { wrapUntrusted } from '../web/untrusted.js';
import type { AgentBrowser, Tab } from './agent-browser.js';
import { renderSnapshot, snapshotDelta, snapshotLines, type SnapshotMode } from './snapshot.js';

/** A mistake the model can fix (a stale ref, a missing tab): an error result, never a browser restart. */
export class BrowserActionError extends Error {}

const REF = /^(f\d+)?e\d+$/;

/**
 * The element a ref names, at once: a ref from an earlier page load is stale
 * and one that matches nothing now fails here, not after an action timeout.
 */
export async function elementFor(tab: Tab, ref: string): Promise<Locator> {
  if (!REF.test(ref)) throw new BrowserActionError(`"${ref}" is not a ref: use one like e12 from the latest snapshot.`);
  if (tab.seenLoad === undefined) throw new BrowserActionError(`No snapshot of tab ${tab.id}'s page yet: call browser snapshot, then use a ref from it.`);
  const stale = () =>
    new BrowserActionError(`Ref ${ref} is stale: tab ${tab.id} loaded a new page since the snapshot it came from. Take a new snapshot and use a ref from it.`);
  if (tab.seenLoad !== tab.load || tab.oldRefs.has(ref)) throw stale();
  if (!tab.refs.has(ref)) throw new BrowserActionError(`Ref ${ref} is not in the latest snapshot of tab ${tab.id}. Use a ref from it (or take a new one).`);
  const locator = tab.page.getByRef(ref);
  const count = await locator.count().catch((error: Error) => {
    if (/Invalid frame in aria-ref/.test(error.message)) throw stale();
    throw error;
  });
  if (count === 0) {
    throw new BrowserActionError(`Ref ${ref} matches nothing on the page now (it changed since the snapshot). Take a new snapshot and use a ref from it.`);
  }
  return locator;
}

export interface LookOptions {
  mode: SnapshotMode;
  maxChars: number;
  /** Only what changed when the page did not load anew since the last snapshot. */
  delta?: boolean;
  timeoutMs: number;
}

/** Describes the refused requests in a line the model can act on. */
function refusedLine(browser: AgentBrowser, tab: Tab): string {
  const refused = browser.refusalsFor(tab);
  if (refused.length === 0) return '';
  const shown = refused.slice(0, 5).map((r) => `  - ${r.url}: ${r.reason}`);
  return `\n[claw refused ${refused.length} request(s) this page made:\n${shown.join('\n')}${refused.length > 5 ? `\n  - … ${refused.length - 5} more` : ''}]`;
}

/** The page as the model reads it: a header, the snapshot (or what changed), fenced as untrusted. */
export async function lookAt(browser: AgentBrowser, tab: Tab, options: LookOptions): Promise<{ content: string; details: Record<string, unknown> }> {
  const page = tab.page;
  const aria = await page.ariaSnapshot({ mode: 'ai', timeout: options.timeoutMs });
  const lines = snapshotLines(aria, options.mode);
  const sameLoad = tab.seenLoad === tab.load && tab.seen !== undefined;
  let body: string;
  let shown: { cut: number; total: number; fresh: number };
  const delta = options.delta && sameLoad ? snapshotDelta(lines, tab.seen!) : undefined;
  if (delta && delta.added.length + delta.removed < lines.length / 2) {
    const rendered = renderSnapshot(delta.added, { maxChars: options.maxChars, seen: tab.seen! });
    const none = delta.added.length === 0 ? '(nothing new)' : rendered.text;
    body = `The page did not load anew: ${delta.added.length} new element(s), ${delta.removed} gone. New:\n${none}\n(browser snapshot shows the whole page)`;
    shown = { cut: rendered.cut, total: lines.length, fresh: delta.added.length };
  } else {
    const rendered = renderSnapshot(lines, { maxChars: options.maxChars, ...(sameLoad ? { seen: tab.seen! } : {}) });
    body = rendered.text || '(the page has no elements to show)';
    shown = rendered;
  }
  tab.seen = new Set(lines.map((line) => line.key));
  if (tab.seenLoad !== tab.load) {
    for (const ref of tab.refs) tab.oldRefs.add(ref);
    // Enough memory of old refs to recognise the last few pages'; older ones read as unknown, which also says what to do.
    if (tab.oldRefs.size > 20_000) tab.oldRefs = new Set([...tab.oldRefs].slice(-10_000));
  }
  tab.refs = new Set(Array.from(aria.matchAll(/\[ref=([^\]]+)\]/g), (match) => match[1]!));
  tab.seenLoad = tab.load;
  const title = await page.title().catch(() => '');
  const url = page.url();
  const others = browser.sessionTabs(tab.sessionKey).length - 1;
  const header = `Tab ${tab.id}${others > 0 ? ` (of ${others + 1}; browser tabs lists them)` : ''}: ${title || '(no title)'} — ${url}`;
  return {
    content: `${header}\n${wrapUntrusted(`${body}${refusedLine(browser, tab)}`, { source: 'browser', url, title: title || undefined, tab: tab.id })}`,
    details: { tab: tab.id, url, title, lines: shown.total, cut: shown.cut, new: shown.fresh, chars: body.length },
  };
}

export interface FormInfo {
  /** The form has a password or payment field. */
  sensitive: boolean;
  /** The element submits (or can submit) the form. */
  submits: boolean;
  action: string;
  method: string;
  text: string;
  fields: string[];
}

/** What submitting through `locator` (or pressing Enter in it) would send, read in the page. */
/** The little of the DOM `formOf` reads in the page (the project builds without the DOM library). */
interface DomControl {
  tagName: string;
  type?: string;
  value?: string;
  name?: string;
  id?: string;
  autocomplete?: string;
  textContent?: string | null;
  form?: DomForm | null;
  closest(selector: string): DomForm | null;
  getAttribute(name: string): string | null;
}
interface DomForm {
  action: string;
  method: string;
  elements: Iterable<DomControl>;
}

export async function formOf(locator: Locator, timeoutMs: number): Promise<FormInfo | undefined> {
  return locator.evaluate(
    (element) => {
      const el = element as unknown as DomControl;
      const form = el.form ?? el.closest('form');
      if (!form) return undefined;
      const controls = [...form.elements];
      const sensitiveField = (f: DomControl) =>
        f.type === 'password' || /^cc-/.test(f.autocomplete || '') || /card.?num|cvc|cvv|iban|security.?code/i.test(`${f.name || ''} ${f.id || ''}`);
      const tag = el.tagName.toLowerCase();
      const type = (el.getAttribute('type') || '').toLowerCase();
      const submits =
        (tag === 'button' && type !== 'reset') || (tag === 'input' && ['submit', 'image', 'button'].includes(type)) || el.getAttribute('role') === 'button';
      const label = (el.textContent || el.value || el.getAttribute('aria-label') || el.getAttribute('name') || tag).trim().slice(0, 80);
      return {
        sensitive: controls.some(sensitiveField),
        submits,
        action: form.action,
        method: (form.method || 'get').toUpperCase(),
        text: label,
        fields: controls.filter(sensitiveField).map((f) => f.name || f.id || f.type || 'field'),
      };
    },
    undefined,
    { timeout: timeoutMs },
  );
}
