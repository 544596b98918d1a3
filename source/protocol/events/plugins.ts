import { z } from 'zod';
import { defineEvent } from '../define.js';
import { pluginInfo } from '../methods/plugins.js';

export const pluginsEvents = {
  'plugins.status': defineEvent({
    name: 'plugins.status',
    description: 'A plugin started, stopped or was quarantined (crash, hang, flood) or refused (tampered package, wider permissions): the full list now.',
    payload: () => z.strictObject({ plugins: z.array(pluginInfo) }),
    scope: 'read',
  }),
};
