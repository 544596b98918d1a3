import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { enterTerminal } from '../../source/tui/terminal.js';
import { openApp, KEYS, type AppHarness } from './support/app-harness.js';
import { operatorFake } from './support/operator-module.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

async function chatWithHistory(): Promise<AppHarness> {
  harness = await openApp([operatorFake().factory]);
  await expect.poll(() => harness!.frame()).toContain('● open');
  const key = harness.store.getState().currentKey;
  for (let i = 0; i < 80; i++) harness.store.applyEvent('chat', { runId: `r${i}`, sessionKey: key, state: 'final', text: `reply number ${i}` });
  await expect.poll(() => harness!.frame()).toContain('reply number 79');
  return harness;
}

describe('mouse wheel (alternate scroll mode)', () => {
  it('scrolls the chat by the arrows one wheel notch sends at once', async () => {
    const h = await chatWithHistory();
    h.type(KEYS.up.repeat(3));
    await expect.poll(() => h.frame()).toContain('↑ scrolled 3 lines');
    h.type(KEYS.down.repeat(3) + KEYS.down.repeat(3));
    await expect.poll(() => h.store.getState().ui.scroll).toBe(0);
    expect(h.frame()).not.toContain('scrolled');
    expect(h.frame()).toContain('reply number 79');
  });

  it('leaves a single Up to the draft history, and a wheel turn does not touch the draft', async () => {
    const h = await chatWithHistory();
    h.type('first draft\r');
    await expect.poll(() => h.store.getState().ui.editor.history).toEqual(['first draft']);
    h.type(KEYS.up);
    await expect.poll(() => h.store.getState().ui.editor.text).toBe('first draft');
    expect(h.store.getState().ui.scroll).toBe(0);
    h.type(KEYS.up.repeat(4));
    await expect.poll(() => h.store.getState().ui.scroll).toBe(4);
    expect(h.store.getState().ui.editor.text).toBe('first draft');
  });

  it('moves the selection of an open list instead of scrolling behind it', async () => {
    const h = await chatWithHistory();
    h.type('/');
    await expect.poll(() => h.frame()).toContain('/help');
    const before = h.store.getState().ui.completionIndex;
    h.type(KEYS.down.repeat(2));
    await expect.poll(() => h.store.getState().ui.completionIndex).toBe(before + 2);
    expect(h.store.getState().ui.scroll).toBe(0);
  });
});

describe('terminal modes', () => {
  it('turns alternate scroll on with the alternate screen and off again on the way out', () => {
    let written = '';
    const stdout = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    const session = enterTerminal(stdout, () => undefined);
    expect(written).toContain('\x1b[?1049h');
    expect(written).toContain('\x1b[?1007h');
    expect(written).not.toContain('\x1b[?1007l');
    session.dispose();
    const after = written.slice(written.lastIndexOf('\x1b[?1007h'));
    expect(after).toContain('\x1b[?1007l');
    expect(after.indexOf('\x1b[?1007l')).toBeLessThan(after.indexOf('\x1b[?1049l'));
  });
});
