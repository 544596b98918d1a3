import { z } from 'zod';
import { defineEvent } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

export const browserTab = lazySchema(() => z.strictObject({ id: z.string(), url: z.string(), current: z.boolean() }));
export type BrowserTab = z.infer<typeof browserTab>;

/** One session's tabs: the `browser.tabs` event, and an entry of the snapshot's `browserTabs`. */
export const sessionBrowserTabs = lazySchema(() => z.strictObject({ sessionKey: z.string(), agentId: z.string(), tabs: z.array(browserTab) }));
export type SessionBrowserTabs = z.infer<typeof sessionBrowserTabs>;

export const browserEvents = {
  'browser.tabs': defineEvent({
    name: 'browser.tabs',
    description: "A session's browser tabs changed (opened, loaded a page, closed, or gone with a browser that stopped).",
    payload: () => sessionBrowserTabs,
    scope: 'read',
  }),
};
