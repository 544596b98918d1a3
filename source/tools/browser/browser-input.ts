import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** The tool's actions and arguments: names other tools, skills and tests rely on. */
export const BROWSER_ACTIONS = [
  'navigate',
  'snapshot',
  'click',
  'type',
  'select',
  'press',
  'scroll',
  'back',
  'wait',
  'tabs',
  'tab',
  'close',
  'screenshot',
  'pdf',
  'download',
  'upload',
  'evaluate',
] as const;

export const browserInput = lazySchema(() =>
  z.strictObject({
    action: z.enum(BROWSER_ACTIONS),
    url: z.string().optional().describe('navigate: absolute http(s) URL.'),
    ref: z.string().optional().describe('click, type, select, scroll, screenshot, download, upload: an element ref like e12 from the latest snapshot.'),
    text: z.string().optional().describe('type: the text to enter ("secret:NAME" fills a stored secret you never see); wait: text to wait for.'),
    submit: z.boolean().optional().describe('type: press Enter afterwards.'),
    value: z.string().optional().describe('select: the option value or label.'),
    key: z.string().optional().describe('press: a key such as Enter, Escape, ArrowDown, Control+A.'),
    direction: z.enum(['up', 'down']).optional().describe('scroll: which way (default down).'),
    ms: z.number().int().min(0).max(60_000).optional().describe('wait: milliseconds.'),
    id: z.string().optional().describe('tab, close: a tab id from tabs (like t2).'),
    mode: z.enum(['interactive', 'full']).optional().describe('snapshot: interactive (default: what can be acted on, headings and text) or full.'),
    maxChars: z.number().int().min(500).max(200_000).optional().describe('snapshot: longest text returned (default tools.browser.snapshotMaxChars).'),
    path: z.string().optional().describe('upload: a file in the workspace.'),
    script: z
      .string()
      .optional()
      .describe('evaluate: a JavaScript expression run in the page (only when tools.browser.evaluate is on; the owner approves each call).'),
  }),
);

export type BrowserArgs = z.output<typeof browserInput>;
