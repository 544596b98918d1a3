import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** `plugins`: how claw runs installed plugins (installing, enabling and grants are `claw plugins …`, kept under <state>/plugins/). */
export const pluginsSection = lazySchema(() =>
  z.strictObject({
    /** A call to a plugin (a tool, a command, a hook, a provider's silence between deltas) longer than this quarantines it as hung. */
    callTimeoutMs: z.number().int().min(1000).max(600_000).default(30_000),
    /** A plugin process's JavaScript heap cap (Node's --max-old-space-size): one that grows past it dies and is quarantined, not the machine. */
    maxMemoryMb: z.number().int().min(32).max(8192).default(256),
    /** Per plugin id: `config` is what the plugin reads as ctx.config, checked against its manifest's configSchema; applied live. */
    entries: z.record(z.string(), z.strictObject({ config: z.record(z.string(), z.unknown()).default({}) })).default({}),
  }),
);
