import { render } from 'ink';
import type { GatewayClient } from '../client/index.js';
import { App } from './components/App.js';
import { TuiController } from './controller.js';
import { initialState } from './store/state.js';
import { TuiStore } from './store/store.js';
import { editInExternalEditorSync } from './external-editor.js';
import { enterTerminal } from './terminal.js';

export interface RunTuiOptions {
  /** A connected client, or its promise: the frame paints and takes typing while it connects. */
  client: GatewayClient | Promise<GatewayClient>;
  agentId?: string;
  sessionKey?: string;
  /** How the gateway is reached when it is remote (the ssh destination), for the header. */
  via?: string;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Called with the first frame's time, for the startup benchmark. */
  onFirstFrame?: () => void;
}

/**
 * Runs the full-screen TUI until the user quits. Resolves with the exit code;
 * rejects with the client promise's error when the connection never came up.
 * The terminal is restored on every path.
 */
export async function runTui(options: RunTuiOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const store = new TuiStore(
    initialState({
      ...(options.agentId ? { agentId: options.agentId } : {}),
      ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}),
      ...(options.via ? { via: options.via } : {}),
    }),
  );
  const controller = new TuiController(options.client, store);
  let finish: (code: number) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  let exiting = false;
  const restore = (): boolean => {
    if (exiting) return false;
    exiting = true;
    instance.unmount();
    terminal.dispose();
    controller.detach();
    store.dispose();
    return true;
  };
  const exit = (code: number, error?: unknown): void => {
    if (!restore()) return;
    if (error !== undefined)
      process.stderr.write(
        `claw: the TUI crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nThe gateway keeps running; run \`claw\` to reattach.\n`,
      );
    finish(code);
  };
  const terminal = enterTerminal(stdout, exit);
  controller.attach();
  const stdin = options.stdin ?? process.stdin;
  const editExternally = async (): Promise<void> => {
    const draft = store.getState().ui.editor.text;
    const raw = stdin.isTTY === true;
    const result = terminal.suspend(() => {
      if (raw) stdin.setRawMode(false);
      try {
        return editInExternalEditorSync(draft);
      } finally {
        if (raw) stdin.setRawMode(true);
      }
    });
    // The editor drew over the screen: Ink must repaint everything, not a diff.
    instance.clear();
    if (result.text !== undefined) {
      const text = result.text;
      store.update((s) => ({ ...s, ui: { ...s.ui, editor: { ...s.ui.editor, text, cursor: text.length, historyIndex: undefined } } }));
    } else controller.error(result.error ?? 'the editor failed', 'Set $EDITOR (e.g. `export EDITOR=nano`) and press Ctrl+G again.');
    store.flush();
  };
  let first = true;
  const instance = render(<App store={store} controller={controller} exit={() => exit(0)} editExternally={editExternally} />, {
    stdout,
    ...(options.stdin ? { stdin: options.stdin } : {}),
    exitOnCtrlC: false,
    patchConsole: true,
    maxFps: 30,
    onRender: () => {
      if (!first) return;
      first = false;
      options.onFirstFrame?.();
    },
  });
  Promise.resolve(options.client).catch((error: unknown) => {
    if (restore()) fail(error);
  });
  return done;
}
