import { Box, Text } from 'ink';
import { contextSegments, thresholdCell } from '../store/selectors.js';
import type { BrowserTab } from '../../protocol/index.js';
import type { TuiState } from '../store/state.js';
import { formatPercent, formatTokens } from '../text/format.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

/** `browser 2 tabs · example.com/a`: how many tabs the session has and where the current one is (the pane is narrow: the count comes first). */
function browserTabsLine(tabs: readonly BrowserTab[]): string {
  const current = tabs.find((tab) => tab.current) ?? tabs[0]!;
  const count = tabs.length === 1 ? '' : ` ${tabs.length} tabs`;
  return `browser${count} · ${current.url.replace(/^https?:\/\//, '')}`;
}

const PART_COLORS = ['magenta', 'blue', 'cyan', 'yellow', 'green', 'red', 'white'] as const;

export function ContextPane({ state, width, height, focused }: { state: TuiState; width: number; height: number; focused: boolean }) {
  const ctx = state.context[state.currentKey];
  if (!ctx) {
    return (
      <Pane title="Context" width={width} height={height} focused={focused}>
        <Empty text="no context report yet" />
      </Pane>
    );
  }
  const barWidth = Math.max(4, width - 2);
  const segments = contextSegments(ctx.parts, ctx.window, barWidth);
  const used = segments.reduce((sum, s) => sum + s.cells, 0);
  const flushAt = thresholdCell(ctx.thresholds.flush, ctx.window, barWidth);
  const compactAt = thresholdCell(ctx.thresholds.compact, ctx.window, barWidth);
  const marks = Array.from({ length: barWidth }, (_, i) => (i === compactAt ? 'C' : i === flushAt ? 'F' : ' ')).join('');
  const turn = state.turnCost[state.currentKey];
  const tabs = state.browserTabs[state.currentKey] ?? [];
  const lines = [
    ...(tabs.length > 0 ? [{ key: 'browser-tabs', color: 'cyan' as const, text: padTo(browserTabsLine(tabs), width - 1) }] : []),
    ...(turn
      ? [
          {
            key: 'turn-cost',
            color: 'white' as const,
            text: padTo(
              `$ this turn ${turn.usd > 0 ? `$${turn.usd.toFixed(4)} · ` : ''}${formatTokens(turn.tokens)} tok · ${turn.calls} call${turn.calls === 1 ? '' : 's'}`,
              width - 1,
            ),
          },
        ]
      : []),
    ...ctx.parts.map((p, i) => ({ key: p.name, color: PART_COLORS[i % PART_COLORS.length]!, text: padTo(`■ ${p.name} ${formatTokens(p.tokens)}`, width - 1) })),
    ...ctx.compactions
      .slice(-3)
      .reverse()
      .map((c) => ({ key: `c${c.at}`, color: 'gray' as const, text: padTo(`⇣ ${formatTokens(c.before)} → ${formatTokens(c.after)}`, width - 1) })),
  ];
  return (
    <Pane
      title={`Context ${formatTokens(ctx.used)}/${formatTokens(ctx.window)} ${formatPercent(ctx.used, ctx.window)}`}
      width={width}
      height={height}
      focused={focused}
    >
      <Box>
        <Text> </Text>
        {segments.map((s, i) => (
          <Text key={s.name} color={PART_COLORS[i % PART_COLORS.length]}>
            {'█'.repeat(s.cells)}
          </Text>
        ))}
        <Text dimColor>{'░'.repeat(Math.max(0, barWidth - used))}</Text>
      </Box>
      <Text color="red" wrap="truncate">{` ${marks}`}</Text>
      <Text dimColor wrap="truncate">
        {padTo(` F memory flush at ${formatTokens(ctx.thresholds.flush)} · C compaction at ${formatTokens(ctx.thresholds.compact)}`, width - 1)}
      </Text>
      {lines.slice(0, Math.max(0, height - 4)).map((l) => (
        <Text key={l.key} color={l.color} wrap="truncate">{` ${l.text}`}</Text>
      ))}
    </Pane>
  );
}
