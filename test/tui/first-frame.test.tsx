import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import { App } from '../../source/tui/components/App.js';
import { TuiController } from '../../source/tui/controller.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { startTestGateway } from '../support/gateway-harness.js';
import { operatorFake } from './support/operator-module.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const flat = (frame: string | undefined): string => (frame ?? '').replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, ' ');

/** The App on a controller whose client is still a promise, as `claw` starts it while the gateway is found. */
async function openBeforeConnect() {
  const fake = operatorFake();
  const gateway = await startTestGateway({ modules: [fake.factory] });
  cleanup.push(() => gateway.stop());
  let deliver: (client: GatewayClient) => void = () => undefined;
  const client = new Promise<GatewayClient>((resolve) => {
    deliver = resolve;
  });
  const store = new TuiStore(initialState(), { frameMs: 5 });
  const controller = new TuiController(client, store);
  controller.attach();
  const app = render(<App store={store} controller={controller} exit={() => undefined} size={{ cols: 100, rows: 30 }} />);
  cleanup.push(() => {
    app.unmount();
    controller.detach();
    store.dispose();
  });
  await expect.poll(() => app.stdin.listenerCount('readable')).toBeGreaterThan(0);
  const connect = async (): Promise<void> => {
    const connected = await gateway.connect({ clientName: 'tui · test@here' });
    cleanup.push(() => connected.close());
    deliver(connected);
  };
  return { app, fake, connect };
}

describe('the TUI before its connection is up', () => {
  it('paints the frame and takes typing at once, and sends what was typed, in order, once connected', async () => {
    const { app, fake, connect } = await openBeforeConnect();
    expect(flat(app.lastFrame())).toContain('● connecting');
    app.stdin.write('first\r');
    await expect.poll(() => flat(app.lastFrame())).toContain('› first');
    app.stdin.write('second\r');
    await expect.poll(() => flat(app.lastFrame())).toContain('› second');
    expect(fake.calls.filter((c) => c.method === 'chat.send')).toHaveLength(0);

    await connect();
    await expect.poll(() => flat(app.lastFrame())).toContain('● open');
    await expect.poll(() => fake.calls.filter((c) => c.method === 'chat.send').map((c) => (c.params as { text: string }).text)).toEqual(['first', 'second']);
    await expect.poll(() => flat(app.lastFrame())).toContain('echo: second');
    // The accepted messages carry the ids of the queued echoes: each shows once.
    expect(flat(app.lastFrame()).split('› first').length).toBe(2);
  });
});
