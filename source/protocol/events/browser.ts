import { z } from 'zod';
import { defineEvent } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

export const browserTab = lazySchema(() => z.strictObject({ id: z.string(), url: z.string(), current: z.boolean() }));
export type BrowserTab = z.infer<typeof browserTab>;

export const browserEvents = {
  'browser.tabs': defineEvent({
    name: 'browser.tabs',
    description: "A session's browser tabs changed (opened, loaded a page, closed, or gone with a browser that stopped).",
    payload: () => z.strictObject({ sessionKey: z.string(), agentId: z.string(), tabs: z.array(browserTab) }),
    scope: 'read',
  }),
};
