import { Box, Text } from 'ink';
import type { Line } from '../text/chat-lines.js';

/** The approval prompt; its lines come from approvalLines so the command is never cut. */
export function ApprovalPrompt({ lines, width }: { lines: Line[]; width: number }) {
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor="yellow" paddingX={0}>
      {lines.map((line, i) => (
        <Text key={i} color={line.color} bold={line.bold} wrap="truncate">
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
