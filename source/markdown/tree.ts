/**
 * Model Markdown as one small tree, parsed once (parse.ts) and read by every
 * renderer: the terminal, Telegram HTML, and the channels to come. Text is
 * plain Unicode here: escapes and entities are already resolved, and nothing
 * is HTML-escaped, so each renderer escapes for its own target.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'em' | 'del' | 'spoiler'; children: Inline[] }
  | { type: 'code'; text: string }
  /** `raw` is the source, for a renderer that refuses the target (a `javascript:` link is shown as typed). */
  | { type: 'link'; href: string; title?: string; raw: string; children: Inline[] }
  | { type: 'image'; src: string; alt: string; title?: string }
  | { type: 'break' };

export type Align = 'left' | 'center' | 'right' | null;

export interface ListItem {
  /** A GFM task item: `- [ ]` (false) or `- [x]` (true). */
  checked?: boolean;
  children: Block[];
}

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; depth: number; children: Inline[] }
  /** `lang` is the first word of the info string (```` ```python title="a.py" ```` → `python`), '' when none. */
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; children: Block[] }
  | { type: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { type: 'table'; align: Align[]; header: Inline[][]; rows: Inline[][][] }
  | { type: 'rule' }
  /** Raw HTML the model wrote: shown as the text it is, never interpreted. */
  | { type: 'html'; text: string };
