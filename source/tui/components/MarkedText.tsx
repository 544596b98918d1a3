import { Text } from 'ink';
import type { ReactElement } from 'react';
import { matchRanges } from '../text/marks.js';

/** Text with the ranges that match a search shown inverted. */
export function MarkedText({ text, query, ranges }: { text: string; query?: string; ranges?: ReadonlyArray<readonly [number, number]> }) {
  const marks = ranges ?? (query ? matchRanges(text, query) : []);
  const parts: ReactElement[] = [];
  let at = 0;
  for (const [start, end] of marks) {
    if (start < at || end > text.length || start >= end) continue;
    if (start > at) parts.push(<Text key={`t${at}`}>{text.slice(at, start)}</Text>);
    parts.push(
      <Text key={`m${start}`} inverse>
        {text.slice(start, end)}
      </Text>,
    );
    at = end;
  }
  if (at < text.length) parts.push(<Text key={`t${at}`}>{text.slice(at)}</Text>);
  return <>{parts}</>;
}
