import { Box, Text } from 'ink';
import { selectFooter } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import { formatTokens } from '../text/format.js';
import { truncate } from '../text/width.js';

export function Footer({ state, width }: { state: TuiState; width: number }) {
  const f = selectFooter(state);
  const tokens = f.window > 0 ? `${formatTokens(f.used)}/${formatTokens(f.window)}` : formatTokens(f.used);
  const left = ` ${f.model} · think ${f.thinking} · ${tokens} tok`;
  const approvals = f.pendingApprovals > 0 ? ` · ⚠ ${f.pendingApprovals} approval${f.pendingApprovals > 1 ? 's' : ''}` : '';
  const hint = state.ui.ctrlCAt !== undefined ? ' · Ctrl+C again to quit' : f.running ? ' · Esc abort' : ' · /help · Tab focus · Ctrl+C×2 quit';
  return (
    <Box width={width} height={1}>
      <Text dimColor wrap="truncate">{left}</Text>
      <Text color="yellow" bold wrap="truncate">{approvals}</Text>
      <Text dimColor wrap="truncate">{truncate(hint, Math.max(0, width - left.length - approvals.length))}</Text>
    </Box>
  );
}
