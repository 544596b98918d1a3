import type { PluginInfo } from '../protocol/index.js';
import { describeContributions, describePermissions } from './manifest.js';
import type { PluginRecord, PluginState } from './store.js';

/** What a plugin's files say about it: whether it may run, and if not, why. `starting` means it should run. */
export function recordStatus(record: PluginRecord): { state: PluginState; error?: string } {
  if (record.problem) return { state: 'error', error: record.problem };
  if (!record.grant?.enabled) return { state: 'disabled' };
  if (record.widened.length > 0)
    return {
      state: 'needs-approval',
      error: `this version asks for more than was granted (${record.widened.join(', ')}); run \`claw plugins enable ${record.id}\` to approve it.`,
    };
  return { state: 'starting' };
}

/** A plugin as `plugins.list` shows it: from its files, and from its process when one runs (`live`). */
export function pluginInfo(record: PluginRecord, live?: { state: PluginState; error?: string; pid?: number; startMs?: number }): PluginInfo {
  const { state, error } = live ?? recordStatus(record);
  const manifest = record.manifest;
  return {
    id: record.id,
    version: manifest?.version ?? record.lock?.version ?? '?',
    description: manifest?.description ?? '',
    state,
    contributes: manifest ? describeContributions(manifest.contributes, record.id) : [],
    granted: record.grant?.enabled === true,
    ...(record.grant ? { grants: describePermissions(record.grant.permissions) } : {}),
    ...(error ? { error } : {}),
    ...(live?.pid !== undefined ? { pid: live.pid } : {}),
    ...(live?.startMs !== undefined ? { startMs: live.startMs } : {}),
  };
}
