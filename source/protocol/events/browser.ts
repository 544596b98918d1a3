import { z } from 'zod';
import { defineEvent } from '../define.js';

export const browserTab = z.strictObject({ id: z.string(), url: z.string(), current: z.boolean() });

export const browserEvents = {
  'browser.tabs': defineEvent({
    name: 'browser.tabs',
    description: "A session's browser tabs changed (opened, loaded a page, closed, or gone with a browser that stopped).",
    payload: () => z.strictObject({ sessionKey: z.string(), agentId: z.string(), tabs: z.array(browserTab) }),
    scope: 'read',
  }),
};

export type BrowserTab = z.infer<typeof browserTab>;
