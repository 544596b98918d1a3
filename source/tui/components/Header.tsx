import { Box, Text } from 'ink';
import type { TuiState } from '../store/state.js';
import { channelAlerts, pluginAlerts } from '../text/channel-alerts.js';
import { truncate } from '../text/width.js';

const CONN_COLOR = { open: 'green', connecting: 'yellow', reconnecting: 'yellow', idle: 'gray', closed: 'red' } as const;

export function Header({ state, width }: { state: TuiState; width: number }) {
  const { conn } = state;
  const latency = conn.state === 'open' && conn.latencyMs !== undefined ? ` ${conn.latencyMs}ms` : '';
  const reason = conn.state !== 'open' && conn.reason ? ` (${conn.reason})` : '';
  const where = conn.via ? `${conn.via} (${conn.host ?? 'remote'})` : (conn.host ?? 'gateway');
  const left = ` claw · ${where}${conn.version ? ` v${conn.version}` : ''} · `;
  const connText = `● ${conn.state}${latency}${reason}`;
  const alerts = [channelAlerts(state.channels), pluginAlerts(state.plugins)].filter(Boolean).join(' ');
  const alertText = alerts ? ` · ${alerts}` : '';
  const right = ` · agent ${state.agentId} · ${state.currentKey}`;
  return (
    <Box width={width} height={1}>
      <Text bold wrap="truncate">
        {left}
      </Text>
      <Text color={CONN_COLOR[conn.state]} wrap="truncate">
        {connText}
      </Text>
      {alertText ? (
        <Text color="red" bold wrap="truncate">
          {alertText}
        </Text>
      ) : null}
      <Text dimColor wrap="truncate">
        {truncate(right, Math.max(0, width - left.length - connText.length - alertText.length))}
      </Text>
    </Box>
  );
}
