import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { padTo } from '../text/width.js';

/** A titled box of fixed size; the title is highlighted while the pane has focus. */
export function Pane({ title, width, height, focused, children }: { title: string; width: number; height: number; focused: boolean; children: ReactNode }) {
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text inverse={focused} bold color={focused ? undefined : 'blue'} wrap="truncate">
        {padTo(` ${title}`, width)}
      </Text>
      <Box flexDirection="column" height={Math.max(0, height - 1)} overflowY="hidden">
        {children}
      </Box>
    </Box>
  );
}

export function Empty({ text }: { text: string }) {
  return <Text dimColor wrap="truncate">{` ${text}`}</Text>;
}
