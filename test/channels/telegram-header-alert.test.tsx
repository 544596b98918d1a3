import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import { Header } from '../../source/tui/components/Header.js';
import { reduceHello } from '../../source/tui/store/reducers.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { alice, aliceChat, sentTo, startTelegramRig, TOKEN, type TelegramRig } from './telegram-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

function headerText(store: TuiStore): string {
  const instance = render(<Header state={store.getState()} width={120} />);
  const frame = instance.lastFrame() ?? '';
  instance.unmount();
  return frame;
}

describe('the TUI header flags a channel that is not working', () => {
  it('shows `telegram ✗` while the channel is in error and clears it once it polls again', async () => {
    const rig: TelegramRig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    const store = new TuiStore(initialState());
    cleanups.push(() => store.dispose());
    store.update((state) => reduceHello(state, client.hello!));
    const frames: string[] = [];
    client.on('channels.status', (payload) => {
      store.applyEvent('channels.status', payload);
      frames.push(headerText(store));
    });
    telegram.pushMessage(aliceChat, alice, 'first');
    await expect.poll(() => sentTo(telegram, alice.id), { timeout: 5000 }).toEqual(['echo: first']);
    expect(headerText(store)).not.toContain('telegram ✗');

    // Another poller keeps taking the token: after its reclaims the channel yields (error), then gets it back.
    telegram.failNext('getUpdates', { code: 409, description: 'Conflict: terminated by other getUpdates request' }, 8);
    telegram.pushMessage(aliceChat, alice, 'wake the poll');
    await expect.poll(() => frames.some((f) => f.includes('telegram ✗')), { timeout: 5000 }).toBe(true);
    await expect.poll(() => gateway.core.channels.status()[0]?.state, { timeout: 5000 }).toBe('running');
    await expect.poll(() => headerText(store), { timeout: 5000 }).not.toContain('telegram ✗');
    expect(headerText(store)).toContain('● open');
  });

  it('a client that connects while the channel is in error sees the flag from the snapshot', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    cleanups.push(() => telegram.close());
    telegram.failNext('getMe', { code: 401, description: 'Unauthorized' });
    const rig: TelegramRig = await startTelegramRig({ telegram, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    await expect.poll(() => rig.gateway.core.channels.status()[0]?.state, { timeout: 5000 }).toBe('error');
    const client = await rig.gateway.connect();
    const hello = client.hello;
    expect(hello?.snapshot.channels?.[0]).toMatchObject({ channel: 'telegram', state: 'error' });
    const store = new TuiStore(initialState());
    cleanups.push(() => store.dispose());
    store.update((state) => reduceHello(state, hello!));
    expect(headerText(store)).toContain('telegram ✗');
  });
});
