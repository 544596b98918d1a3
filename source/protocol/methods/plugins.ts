import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const pluginInfo = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    version: z.string(),
    description: z.string(),
    /** `disabled` (installed, not enabled), `needs-approval` (asks for more than was granted), `starting`, `running`, `error` (quarantined or refused). */
    state: z.enum(['disabled', 'needs-approval', 'starting', 'running', 'error']),
    /** One line per kind: `tools: acme-weather__weather_now`, `commands: /weather`, … */
    contributes: z.array(z.string()),
    /** The owner granted its permissions and enabled it. */
    granted: z.boolean(),
    /** What it was granted, one line per kind (`network: wttr.in (…)`, `secrets: ACME_KEY`); absent when nothing was granted. */
    grants: z.array(z.string()).optional(),
    /** Why it does not run: a crash, a hang, a flood, a tampered package, wider permissions. */
    error: z.string().optional(),
    pid: z.number().int().optional(),
    /** Milliseconds from starting its process to its setup finished. */
    startMs: z.number().optional(),
  }),
);
export type PluginInfo = z.infer<typeof pluginInfo>;

export const pluginMethods = {
  'plugins.list': defineMethod({
    name: 'plugins.list',
    description: 'Installed plugins with their state, contributions and last error.',
    params: () => z.strictObject({}).optional(),
    result: () => z.strictObject({ plugins: z.array(pluginInfo) }),
    scope: 'read',
    mutating: false,
  }),
  'plugins.reload': defineMethod({
    name: 'plugins.reload',
    description: 'Re-reads what is installed and granted (after `claw plugins add|enable|disable|remove`): starts what should run, stops what should not.',
    params: () => z.strictObject({ idempotencyKey: z.string().max(128).optional() }).optional(),
    result: () => z.strictObject({ plugins: z.array(pluginInfo) }),
    scope: 'admin',
    mutating: true,
  }),
  'plugins.enable': defineMethod({
    name: 'plugins.enable',
    description:
      'Asks the owner (an approval of kind `plugin` in the TUI or `claw approvals`) to grant an installed plugin the permissions its manifest lists; once granted it runs. Waits for the answer.',
    params: () => z.strictObject({ id: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ approved: z.boolean(), plugin: pluginInfo }),
    scope: 'admin',
    mutating: true,
  }),
  'plugins.restart': defineMethod({
    name: 'plugins.restart',
    description: 'Starts a quarantined or running plugin afresh.',
    params: () => z.strictObject({ id: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ plugin: pluginInfo }),
    scope: 'admin',
    mutating: true,
  }),
};
