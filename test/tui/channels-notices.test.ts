import { describe, expect, it } from 'vitest';
import { selectChat } from '../../source/tui/store/selectors.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';

describe('channel notices in the TUI', () => {
  it('shows a pairing request once and a channel in error once per reason', () => {
    const store = new TuiStore(initialState());
    const pairing = { code: 'ABCD2345', channel: 'telegram', accountId: 'default', senderId: '4001', chatId: '4001', createdAt: 0, expiresAt: 3_600_000 };
    store.applyEvent('pairing.requested', { pairing, notice: 'Telegram: @alice asks to pair — `claw pairing approve ABCD2345`' });
    const error = { channel: 'telegram', accountId: 'default', state: 'error', reason: 'Telegram refused the bot token (401)', reconnectAttempts: 0 };
    store.applyEvent('channels.status', { channels: [error] });
    store.applyEvent('channels.status', { channels: [error] });
    store.applyEvent('channels.status', { channels: [{ ...error, state: 'running', reason: undefined }] });
    const notices = selectChat(store.getState()).items.filter((item) => item.kind === 'notice');
    store.dispose();
    expect(notices.map((n) => (n as { text: string }).text)).toEqual([
      'Telegram: @alice asks to pair — `claw pairing approve ABCD2345`',
      'telegram:default is in error: Telegram refused the bot token (401) (`claw channels status`)',
    ]);
  });
});

describe('plugin notices in the TUI', () => {
  it('says once when a plugin is quarantined, and the header flags it until it runs again', async () => {
    const { render } = await import('ink-testing-library');
    const { createElement } = await import('react');
    const { Header } = await import('../../source/tui/components/Header.js');
    const store = new TuiStore(initialState());
    const quarantined = {
      id: 'probe',
      version: '1.0.0',
      description: '',
      state: 'error' as const,
      contributes: [],
      granted: true,
      error: 'the process exited with code 1',
    };
    store.applyEvent('plugins.status', { plugins: [quarantined] });
    store.applyEvent('plugins.status', { plugins: [quarantined] });
    const notices = selectChat(store.getState()).items.filter((item) => item.kind === 'notice');
    expect(notices.map((n) => (n as { text: string }).text)).toEqual([
      'plugin probe stopped: the process exited with code 1 (`claw plugins logs probe`, then `claw plugins restart probe`)',
    ]);
    const flagged = render(createElement(Header, { state: store.getState(), width: 120 }));
    expect(flagged.lastFrame()).toContain('plugin probe ✗');
    flagged.unmount();
    store.applyEvent('plugins.status', { plugins: [{ ...quarantined, state: 'running', error: undefined }] });
    const clear = render(createElement(Header, { state: store.getState(), width: 120 }));
    expect(clear.lastFrame()).not.toContain('plugin probe');
    clear.unmount();
    store.dispose();
  });
});
