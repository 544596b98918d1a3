import type { Key } from 'ink';
import type { CommandContext } from '../commands/types.js';
import { chooseModel, chooseProvider, closeSetup, retryAfterFailure, submitKey, submitName, submitUrl } from './setup-flow.js';
import { listLength, type SetupUi } from './setup-state.js';

const TYPING_STEPS = new Set(['url', 'key', 'model', 'agentName', 'userName']);

function typed(setup: SetupUi, input: string, key: Key, raw: string | undefined): string | undefined {
  if (key.backspace || (key.delete && raw !== '\u001b[3~')) return setup.text.slice(0, -1);
  if (key.ctrl && input === 'u') return '';
  if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return undefined;
  // A paste arrives as one chunk; its line breaks are not part of a key or a name.
  const printable = input.replace(/[\r\n]+/g, '');
  return printable ? setup.text + printable : undefined;
}

function submit(context: CommandContext, setup: SetupUi): void {
  switch (setup.step) {
    case 'provider':
      return chooseProvider(context, setup);
    case 'url':
      return submitUrl(context, setup);
    case 'key':
      return submitKey(context, setup);
    case 'model':
      return chooseModel(context, setup);
    case 'failed':
      return retryAfterFailure(context, setup);
    case 'agentName':
    case 'userName':
      return submitName(context, setup);
    case 'done':
      return closeSetup(context);
    default:
      return undefined;
  }
}

/** The setup screen holds the keyboard while open: lists move with ↑/↓, text steps take typing, Enter goes on, Esc leaves. */
export function handleSetupKey(input: string, key: Key, context: CommandContext, raw: string | undefined): void {
  const setup = context.store.getState().setup;
  if (!setup) return;
  if (key.escape) return closeSetup(context);
  // A pasted key often ends in a newline: the text goes in first, then Enter submits it.
  const enter = key.return || (input.length > 1 && /[\r\n]$/.test(input));
  if (TYPING_STEPS.has(setup.step)) {
    const text = key.return ? undefined : typed(setup, input, key, raw);
    if (text !== undefined) {
      const next = { ...setup, text, index: 0, error: undefined };
      context.store.update((s) => ({ ...s, setup: next }));
      if (enter) submit(context, next);
      return;
    }
  }
  const rows = listLength(setup);
  if ((key.upArrow || key.downArrow) && rows > 0) {
    const index = (setup.index + (key.upArrow ? -1 : 1) + rows) % rows;
    context.store.update((s) => (s.setup ? { ...s, setup: { ...s.setup, index } } : s));
    return;
  }
  if (enter) submit(context, setup);
}
