import { Box, Text } from 'ink';
import { layoutEditor, type EditorState } from '../editor/editor.js';
import { graphemes, stringWidth, truncate } from '../text/width.js';

export const MAX_INPUT_ROWS = 6;

export function inputRows(editor: EditorState, width: number): number {
  if (editor.search) return 1;
  return Math.min(MAX_INPUT_ROWS, layoutEditor(editor, width - 3).rows.length);
}

/** Splits a row at a cell column so the cursor can be drawn in place. */
function splitAtColumn(row: string, column: number): [string, string, string] {
  let used = 0;
  let before = '';
  const parts = graphemes(row);
  for (let i = 0; i < parts.length; i++) {
    if (used >= column) return [before, parts[i]!, parts.slice(i + 1).join('')];
    before += parts[i];
    used += stringWidth(parts[i]!);
  }
  return [before, ' ', ''];
}

export function InputBox({ editor, width, active, prompt }: { editor: EditorState; width: number; active: boolean; prompt?: string | undefined }) {
  if (editor.search) {
    const match = editor.search.match === undefined ? (editor.search.query ? 'no match' : '') : editor.history[editor.search.match]!.replace(/\n/g, ' ⏎ ');
    return (
      <Box flexDirection="column" width={width}>
        <Text dimColor wrap="truncate">
          {'─'.repeat(width)}
        </Text>
        <Text wrap="truncate">
          <Text color="cyan">{`(history search) ${editor.search.query}▏ `}</Text>
          {truncate(match, Math.max(0, width - 20 - stringWidth(editor.search.query)))}
        </Text>
      </Box>
    );
  }
  const { rows, cursorRow, cursorCol } = layoutEditor(editor, width - 3);
  const first = Math.max(0, Math.min(cursorRow - MAX_INPUT_ROWS + 1, rows.length - MAX_INPUT_ROWS));
  const visible = rows.slice(first, first + MAX_INPUT_ROWS);
  return (
    <Box flexDirection="column" width={width}>
      <Text dimColor wrap="truncate">
        {'─'.repeat(width)}
      </Text>
      {visible.map((row, i) => {
        const lead = i + first === 0 ? (prompt ?? '❯ ') : ' '.repeat(stringWidth(prompt ?? '❯ '));
        if (!active || i + first !== cursorRow)
          return (
            <Text key={i} wrap="truncate">
              {lead}
              {row}
            </Text>
          );
        const [before, at, after] = splitAtColumn(row, cursorCol);
        return (
          <Text key={i} wrap="truncate">
            {lead}
            {before}
            <Text inverse>{at}</Text>
            {after}
          </Text>
        );
      })}
    </Box>
  );
}
