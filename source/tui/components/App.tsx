import { Box, Text } from 'ink';
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { TuiController } from '../controller.js';
import { currentCompletions, handleKey, handleWheel } from '../keymap.js';
import { computeLayout, type Column } from '../layout.js';
import { selectActiveApproval, selectHiddenPanes, selectInputPrompt } from '../store/selectors.js';
import type { PaneId, TuiState } from '../store/state.js';
import type { TuiStore } from '../store/store.js';
import { approvalLines } from '../text/approval-lines.js';
import { selectActiveElicitation } from '../store/elicitation.js';
import { pickerChoices } from '../store/choice-picker.js';
import { elicitationLines } from '../text/elicitation-lines.js';
import { type KeyHandler, wheelFilter } from '../wheel.js';
import { ApprovalPrompt } from './ApprovalPrompt.js';
import { type ChatEdge, ChatPane, chatPaneProps } from './ChatPane.js';
import type { LineCount } from '../store/history-window.js';
import { ContextPane } from './ContextPane.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { InputBox, inputRows } from './InputBox.js';
import { LanesPane } from './LanesPane.js';
import { Popup, popupHeight } from './Popup.js';
import { SessionsPane } from './SessionsPane.js';
import { SchedulePane } from './SchedulePane.js';
import { SubagentsPane } from './SubagentsPane.js';
import { useTerminalSize } from './use-terminal-size.js';
import { useKeys } from './use-keys.js';
import { selectNeedsClock } from '../store/ticking.js';
import { samePaneProps } from './memo.js';
import { SearchPopup, searchPopupHeight } from './SearchPopup.js';
import { SessionPicker, sessionPickerHeight } from './SessionPicker.js';
import { ProviderProblem, providerProblemRows } from './ProviderProblem.js';
import { CompactionStrip, compactionStripRows } from './CompactionStrip.js';
import { SetupScreen } from './SetupScreen.js';

export interface AppProps {
  store: TuiStore;
  controller: TuiController;
  exit(): void;
  /** Fixed size for tests; the real terminal size otherwise. */
  size?: { cols: number; rows: number };
  /** Opens the draft in $EDITOR (run.tsx provides it; tests may leave it out). */
  editExternally?: () => Promise<void>;
}

const NO_MODEL = 'No model configured. Enter or /setup adds one.';

/** The time, ticking each second while `ticking`; it catches up whenever that changes. */
function useClock(now: () => number, ticking: boolean): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    // Stopping or starting, the screen is drawn once at the current time.
    setTime(now());
    if (!ticking) return;
    const timer = setInterval(() => setTime(now()), 1000);
    return () => clearInterval(timer);
  }, [now, ticking]);
  return time;
}

// Panes, header and footer are drawn from the whole state; memoised past the draft, a keystroke skips them.
const SidePane = memo(function SidePane({ id, state, width, height, now }: { id: PaneId; state: TuiState; width: number; height: number; now: number }) {
  const focused = state.ui.focus === id;
  switch (id) {
    case 'sessions':
      return <SessionsPane state={state} width={width} height={height} focused={focused} />;
    case 'lanes':
      return <LanesPane state={state} width={width} height={height} focused={focused} now={now} />;
    case 'context':
      return <ContextPane state={state} width={width} height={height} focused={focused} />;
    case 'subagents':
      return <SubagentsPane state={state} width={width} height={height} focused={focused} now={now} />;
    case 'schedule':
      return <SchedulePane state={state} width={width} height={height} focused={focused} now={now} />;
    case 'chat':
      return null;
  }
}, samePaneProps);
const MemoHeader = memo(Header, samePaneProps);
const MemoFooter = memo(Footer, samePaneProps);

function SideColumn({ column, state, now, side }: { column: Column; state: TuiState; now: number; side: 'left' | 'right' }) {
  return (
    <Box
      flexDirection="column"
      width={column.width}
      borderStyle="single"
      borderTop={false}
      borderBottom={false}
      borderLeft={side === 'right'}
      borderRight={side === 'left'}
      borderDimColor
    >
      {column.panes.map((pane) => (
        <SidePane key={pane.id} id={pane.id} state={state} width={column.width - 1} height={pane.height} now={now} />
      ))}
    </Box>
  );
}

/** The picker's rows; a filter that matches nothing says so rather than showing an empty box. */
function pickerItems(picker: NonNullable<TuiState['ui']['picker']>): Array<{ label: string; description: string }> {
  const choices = pickerChoices(picker);
  return choices.length > 0
    ? choices.map((choice) => ({ label: choice.value, description: choice.description }))
    : [{ label: '(none)', description: `nothing matches "${picker.filter}"` }];
}

export function App({ store, controller, exit, size, editExternally }: AppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { cols, rows } = useTerminalSize(size);
  const now = useClock(store.now, selectNeedsClock(state, store.now()));
  const context = { store, controller, exit, ...(editExternally ? { editExternally } : {}) };
  const onEdge = useCallback((edge: ChatEdge, lines: LineCount) => controller.loadEdge(store.getState().currentKey, edge, lines), [controller, store]);
  const approval = selectActiveApproval(state);
  const promptLines = approval ? approvalLines(approval, cols, now, state.ui.confirmAlways === approval.id, state.approvals.pending.length - 1) : [];
  const guardNote = approval && state.ui.guardedKeys > 0 ? 1 : 0;
  const elicitation = approval ? undefined : selectActiveElicitation(state);
  const form = elicitation && state.ui.elicitation?.id === elicitation.id ? state.ui.elicitation : undefined;
  const formLines = elicitation && form ? elicitationLines(elicitation, form, cols, now, (state.mcp?.elicitations.length ?? 1) - 1) : [];
  const popup = approval || form ? [] : currentCompletions(state, context);
  const picker = state.ui.picker;
  const search = approval ? undefined : state.ui.search;
  const sessionPicker = approval || search ? undefined : state.ui.sessionPicker;
  const popupRows = search
    ? searchPopupHeight(search)
    : sessionPicker
      ? sessionPickerHeight(state)
      : picker
        ? popupHeight(Math.max(1, pickerChoices(picker).length), true)
        : popupHeight(popup.length, false);
  const inputHeight = 1 + inputRows(state.ui.editor, cols);
  const problemRows = providerProblemRows(state);
  const stripRows = approval || form ? 0 : compactionStripRows(state);
  const bottomRows =
    (approval ? promptLines.length + 2 + guardNote + inputHeight : form ? formLines.length + 2 + inputHeight : inputHeight + popupRows + stripRows) +
    problemRows;
  const chat = chatPaneProps(state);
  const layout = computeLayout({ cols, rows, hidden: selectHiddenPanes(state), zoom: state.ui.zoom, bottomRows });
  // The filter lives across renders; the handlers it calls are this render's.
  const handlers = useRef<{ key: KeyHandler; wheel: (lines: number) => boolean }>(undefined as never);
  handlers.current = {
    key: (input, key, raw) => {
      handleKey(input, key, { ...context, layout }, raw);
      // A key is drawn at once; only streamed events wait for the store's frame.
      store.flush();
    },
    wheel: (lines) => {
      const used = handleWheel(lines, { ...context, layout });
      store.flush();
      return used;
    },
  };
  const filter = useMemo(
    () =>
      wheelFilter(
        (input, key, raw) => handlers.current.key(input, key, raw),
        (lines) => handlers.current.wheel(lines),
      ),
    [],
  );
  useKeys(filter);

  return (
    <Box flexDirection="column" width={layout.width} height={layout.height}>
      <MemoHeader state={state} width={layout.width} />
      {problemRows > 0 ? <ProviderProblem state={state} width={layout.width} /> : null}
      {state.setup ? <SetupScreen setup={state.setup} width={layout.width} height={layout.bodyHeight + bottomRows - problemRows} /> : null}
      <Box height={layout.bodyHeight} width={layout.width} display={state.setup ? 'none' : 'flex'}>
        {layout.zoomed ? (
          <SidePane id={layout.zoomed} state={state} width={layout.width} height={layout.bodyHeight} now={now} />
        ) : (
          <>
            {layout.left ? <SideColumn column={layout.left} state={state} now={now} side="left" /> : null}
            <ChatPane
              {...chat}
              store={store}
              width={layout.chatWidth}
              height={layout.bodyHeight}
              now={chat.progress && chat.log.running ? now : 0}
              notice={state.modelMissing ? NO_MODEL : undefined}
              onEdge={onEdge}
            />
            {layout.right ? <SideColumn column={layout.right} state={state} now={now} side="right" /> : null}
          </>
        )}
      </Box>
      {state.setup ? null : approval ? (
        <>
          <ApprovalPrompt lines={promptLines} width={layout.width} />
          {guardNote ? (
            <Text
              color="yellow"
              wrap="truncate"
            >{` ${state.ui.guardedKeys} key${state.ui.guardedKeys > 1 ? 's' : ''} went to your draft, not the prompt: pause, then press y/s/a/n`}</Text>
          ) : null}
          <InputBox editor={state.ui.editor} width={layout.width} active={false} />
        </>
      ) : form ? (
        <>
          <ApprovalPrompt lines={formLines} width={layout.width} />
          <InputBox editor={state.ui.editor} width={layout.width} active={false} />
        </>
      ) : (
        <>
          {stripRows > 0 ? <CompactionStrip state={state} width={layout.width} now={now} /> : null}
          {search ? <SearchPopup search={search} state={state} width={layout.width} now={now} /> : null}
          {sessionPicker ? <SessionPicker state={state} width={layout.width} now={now} /> : null}
          {!search && !sessionPicker && picker ? (
            <Popup
              title={`${picker.title}${picker.filter ? `: ${picker.filter}` : ' (type to filter)'}`}
              items={pickerItems(picker)}
              index={picker.index}
              width={layout.width}
            />
          ) : null}
          {!search && !sessionPicker && !picker && popup.length > 0 ? (
            <Popup items={popup} index={Math.min(state.ui.completionIndex, popup.length - 1)} width={layout.width} />
          ) : null}
          <InputBox
            editor={state.ui.editor}
            width={layout.width}
            active={state.ui.focus === 'chat' && !search && !sessionPicker}
            prompt={selectInputPrompt(state)}
          />
        </>
      )}
      <MemoFooter state={state} width={layout.width} now={now} />
    </Box>
  );
}
