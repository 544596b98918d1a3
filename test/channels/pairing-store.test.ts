import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PairingError, PairingStore } from '../../source/channels/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  state?.cleanup();
  state = undefined;
});

const sender = (id: string) => ({ channel: 'telegram', accountId: 'default', senderId: id, senderName: `@u${id}`, chatId: id });

describe('pairing store', () => {
  it('issues 8-character codes, at most 3 pending per account, the same code again to the same sender, expiring after 1 h', () => {
    state = makeTempState();
    const clock = new ManualClock();
    const file = join(state.dir, 'pairing.json');
    const store = new PairingStore(file, clock);
    const first = store.request(sender('1'))!;
    expect(first.code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);
    expect(store.request(sender('1'))).toEqual({ code: first.code, created: false });
    store.request(sender('2'));
    store.request(sender('3'));
    expect(store.request(sender('4'))).toBeUndefined();
    expect(store.request({ ...sender('4'), accountId: 'other' })).toBeDefined();
    clock.advance(60 * 60_000 - 1);
    expect(store.pending()).toHaveLength(4);
    clock.advance(1);
    expect(store.pending()).toHaveLength(0);
    expect(() => store.approve(first.code)).toThrow(PairingError);
  });

  it('pairing adds contacts; only --owner makes an owner, replacing the one before; approvals survive a restart', () => {
    state = makeTempState();
    const clock = new ManualClock();
    const file = join(state.dir, 'pairing.json');
    const store = new PairingStore(file, clock);
    const a = store.request(sender('1'))!;
    const b = store.request(sender('2'))!;
    expect(store.approve(a.code.toLowerCase()).approved.owner).toBe(false);
    expect(store.owner('telegram', 'default')).toBeUndefined();
    expect(store.deny(b.code).senderId).toBe('2');
    const again = store.request(sender('2'))!;
    expect(store.approve(again.code, { owner: true })).toMatchObject({ approved: { senderId: '2', owner: true } });
    const third = store.request(sender('3'))!;
    expect(store.approve(third.code, { owner: true }).replaced?.senderId).toBe('2');
    const reopened = new PairingStore(file, clock);
    expect(reopened.isApproved('telegram', 'default', '1')).toBe(true);
    expect(reopened.owner('telegram', 'default')?.senderId).toBe('3');
    expect(reopened.isApproved('telegram', 'default', '4')).toBe(false);
  });
});
