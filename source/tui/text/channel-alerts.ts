import type { ChannelStatusInfo, PluginInfo } from '../../protocol/index.js';

/**
 * The header's flag for channels that are not working: `telegram ✗` while
 * one is in error, `telegram ↻` while it reconnects; empty when all are
 * fine. An account is named only when its channel has several.
 */
export function channelAlerts(channels: readonly ChannelStatusInfo[] | undefined): string {
  if (!channels) return '';
  const perChannel = new Map<string, number>();
  for (const c of channels) perChannel.set(c.channel, (perChannel.get(c.channel) ?? 0) + 1);
  const flags = channels
    .filter((c) => c.state === 'error' || c.state === 'reconnecting')
    .map((c) => `${perChannel.get(c.channel)! > 1 ? `${c.channel}:${c.accountId}` : c.channel} ${c.state === 'error' ? '✗' : '↻'}`);
  return [...new Set(flags)].join(' ');
}

/** The header's flag for plugins that stopped or were refused: `plugin probe ✗`. */
export function pluginAlerts(plugins: readonly PluginInfo[] | undefined): string {
  return (plugins ?? [])
    .filter((plugin) => plugin.state === 'error')
    .map((plugin) => `plugin ${plugin.id} ✗`)
    .join(' ');
}
