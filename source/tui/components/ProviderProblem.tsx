import { Box, Text } from 'ink';
import type { TuiState } from '../store/state.js';

/** Rows the provider warning takes under the header: the problem, then the fix on a line of its own. */
export function providerProblemRows(state: TuiState): number {
  return state.setupStatus?.problem && !state.setup ? 2 : 0;
}

/** The default model's provider failed its check at start (bad key, server down): what, and the one command that fixes it. */
export function ProviderProblem({ state, width }: { state: TuiState; width: number }) {
  const problem = state.setupStatus?.problem;
  if (!problem) return null;
  return (
    <Box flexDirection="column" width={width} height={2}>
      <Text color="red" wrap="truncate">
        {` ⚠ ${problem.message}`}
      </Text>
      <Text color="yellow" wrap="truncate">
        {` fix: /setup here, or in a shell:  ${problem.fix}`}
      </Text>
    </Box>
  );
}
