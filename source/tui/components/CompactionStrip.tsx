import { Box, Text } from 'ink';
import { formatTokens } from '../../protocol/index.js';
import type { TuiState } from '../store/state.js';

/** Rows the strip takes: the preview line, and the identifiers when shown (r). */
export function compactionStripRows(state: TuiState): number {
  if (!state.compactionPreviews[state.currentKey]) return 0;
  return state.ui.previewDetails ? 3 : 1;
}

/**
 * An automatic compaction about to run in this session: what it summarises,
 * how small the context gets, the identifiers it keeps, and the keys (with an
 * empty input line) to run it now, postpone it for this turn, or see details.
 */
export function CompactionStrip({ state, width, now }: { state: TuiState; width: number; now: number }) {
  const preview = state.compactionPreviews[state.currentKey];
  if (!preview) return null;
  const seconds = Math.max(0, Math.ceil((preview.deadline - now) / 1000));
  const kept = preview.identifiers.length;
  // The keys come first: on a narrow terminal the figures are what gets cut.
  const line =
    ` ⟳ Compacting in ${seconds}s · c now · p postpone · r ${state.ui.previewDetails ? 'hide' : 'details'} — ` +
    `${preview.turns} turn${preview.turns === 1 ? '' : 's'} (${preview.messages} messages) → summary, ${formatTokens(preview.tokensBefore)} → ~${formatTokens(preview.tokensAfter)} tokens, ${kept} identifier${kept === 1 ? '' : 's'} kept`;
  return (
    <Box flexDirection="column" width={width}>
      <Text color="yellow" wrap="truncate">
        {line}
      </Text>
      {state.ui.previewDetails ? (
        <Text dimColor wrap="truncate-end">
          {` kept verbatim: ${kept > 0 ? preview.identifiers.join(', ') : 'no identifiers in the summarised part'}\n the ${preview.turns} oldest turns become a summary; the recent ones stay word for word · /compact review shows it afterwards`}
        </Text>
      ) : null}
    </Box>
  );
}
