import { render } from 'ink-testing-library';
import { expect } from 'vitest';
import type { GatewayClient } from '../../../source/client/index.js';
import type { TestModule } from '../../support/gateway-harness.js';
import { App } from '../../../source/tui/components/App.js';
import { TuiController } from '../../../source/tui/controller.js';
import { initialState } from '../../../source/tui/store/state.js';
import { TuiStore } from '../../../source/tui/store/store.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';

export interface AppHarness {
  gateway: TestGateway;
  client: GatewayClient;
  store: TuiStore;
  frame(): string;
  /** The frame without colours and with whitespace runs as one space, for text that may wrap. */
  flat(): string;
  type(data: string): void;
  /** Moves the TUI's clock forward (the approval guard and the Ctrl+C window read it). */
  advance(ms: number): void;
  exited(): number;
  stop(): Promise<void>;
}

export const KEYS = {
  enter: '\r',
  tab: '\t',
  shiftTab: '\x1b[Z',
  esc: '\x1b',
  ctrlC: '\x03',
  ctrlF: '\x06',
  ctrlL: '\x0c',
  ctrlR: '\x12',
  ctrlK: '\x0b',
  ctrlU: '\x15',
  ctrlW: '\x17',
  left: '\x1b[D',
  right: '\x1b[C',
  up: '\x1b[A',
  down: '\x1b[B',
  ctrlLeft: '\x1b[1;5D',
  altB: '\x1bb',
  altF: '\x1bf',
  /** What xterm, tmux and iTerm send for the Backspace key. */
  backspace: '\x7f',
  /** The Delete key. */
  delete: '\x1b[3~',
} as const;

/** Past the approval guard: the prompt has been visible and the keyboard quiet long enough. */
export const PAUSE = 600;

/** The TUI rendered by Ink on a real client connected to an in-process gateway over loopback. */
export async function openApp(
  modules: TestModule[],
  size = { cols: 100, rows: 30 },
  gatewayOptions: Parameters<typeof startTestGateway>[0] = {},
): Promise<AppHarness> {
  const gateway = await startTestGateway({ ...gatewayOptions, modules });
  const client = await gateway.connect({ clientName: 'tui · test@here' });
  let offset = 0;
  const store = new TuiStore(initialState(), { frameMs: 5, now: () => Date.now() + offset });
  const controller = new TuiController(client, store);
  controller.attach();
  let exits = 0;
  const app = render(
    <App
      store={store}
      controller={controller}
      exit={() => {
        exits += 1;
      }}
      size={size}
    />,
  );
  // Keys typed before Ink's input effect subscribes are dropped, as on a real terminal.
  await expect.poll(() => app.stdin.listenerCount('readable')).toBeGreaterThan(0);
  const frame = (): string => app.lastFrame() ?? '';
  return {
    gateway,
    client,
    store,
    frame,
    flat: () =>
      frame()
        .replace(/\x1b\[[0-9;]*m/g, '')
        .replace(/\s+/g, ' '),
    type: (data) => app.stdin.write(data),
    advance: (ms) => {
      offset += ms;
    },
    exited: () => exits,
    async stop() {
      app.unmount();
      controller.detach();
      store.dispose();
      await gateway.stop();
    },
  };
}
