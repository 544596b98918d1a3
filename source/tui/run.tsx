import { render } from 'ink';
import type { GatewayClient } from '../client/index.js';
import { App } from './components/App.js';
import { TuiController } from './controller.js';
import { initialState } from './store/state.js';
import { TuiStore } from './store/store.js';
import { enterTerminal } from './terminal.js';

export interface RunTuiOptions {
  client: GatewayClient;
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
 * Runs the full-screen TUI on a connected client until the user quits.
 * Resolves with the exit code; the terminal is restored on every path.
 */
export async function runTui(options: RunTuiOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const store = new TuiStore(initialState({ ...(options.agentId ? { agentId: options.agentId } : {}), ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}), ...(options.via ? { via: options.via } : {}) }));
  const controller = new TuiController(options.client, store);
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => { finish = resolve; });
  let exiting = false;
  const exit = (code: number, error?: unknown): void => {
    if (exiting) return;
    exiting = true;
    instance.unmount();
    terminal.dispose();
    controller.detach();
    store.dispose();
    if (error !== undefined) process.stderr.write(`claw: the TUI crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\nThe gateway keeps running; run \`claw\` to reattach.\n`);
    finish(code);
  };
  const terminal = enterTerminal(stdout, exit);
  controller.attach();
  let first = true;
  const instance = render(<App store={store} controller={controller} exit={() => exit(0)} />, {
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
  return done;
}
