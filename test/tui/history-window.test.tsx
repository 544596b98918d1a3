import { afterEach, describe, expect, it } from 'vitest';
import { selectChat } from '../../source/tui/store/selectors.js';
import { CHAT_WINDOW } from '../../source/tui/store/state.js';
import { setUi } from '../../source/tui/ui-actions.js';
import { openApp, type AppHarness } from './support/app-harness.js';
import { transcriptsModule } from './support/transcripts-module.js';

const KEY = 'agent:main:main';
const MESSAGES = 1400;
const HOME = '\x1b[H';
const END = '\x1b[F';

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The transcript's messages in memory, as their numbers, in order. */
function numbersInMemory(app: AppHarness): number[] {
  return selectChat(app.store.getState(), KEY).items.flatMap((item) => {
    const match = 'text' in item ? /^m(\d+)$/.exec(item.text) : null;
    return match ? [Number(match[1])] : [];
  });
}

function contiguous(numbers: number[]): boolean {
  return numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
}

describe('the chat window over a transcript longer than what the TUI keeps', () => {
  it('pages back to the first message with a bounded window, fills the gap on the way down, and End returns to the latest', async () => {
    const texts = Array.from({ length: MESSAGES }, (_, i) => `m${i}`);
    h = await openApp([transcriptsModule({ [KEY]: texts })], { cols: 80, rows: 24 });
    const app = h;
    await expect.poll(() => app.flat()).toContain(`m${MESSAGES - 1}`);
    expect(numbersInMemory(app).length).toBeLessThan(MESSAGES);

    // Home goes to the top of what is in memory, and the page above it loads; again and again to the first message.
    await expect
      .poll(
        () => {
          app.type(HOME);
          return app.flat();
        },
        { timeout: 20_000, interval: 200 },
      )
      .toContain(' m0 ');
    const top = numbersInMemory(app);
    expect(top[0]).toBe(0);
    expect(top.length).toBeLessThanOrEqual(CHAT_WINDOW);
    expect(contiguous(top)).toBe(true);
    expect(top).not.toContain(MESSAGES - 1);
    expect(selectChat(app.store.getState(), KEY).newer).toBeDefined();

    // Scrolled down to just above the gap: the messages after the window come back, in order.
    const lastKept = top.at(-1)!;
    app.store.update((s) => setUi(s, { scroll: 3 }));
    await expect.poll(() => numbersInMemory(app)).toContain(lastKept + 1);
    const refilled = numbersInMemory(app);
    expect(contiguous(refilled)).toBe(true);
    expect(refilled.length).toBeLessThanOrEqual(CHAT_WINDOW);

    // End follows the bottom again: the newest page replaces the paged-back window.
    app.type(END);
    await expect.poll(() => app.flat()).toContain(`m${MESSAGES - 1}`);
    await expect.poll(() => selectChat(app.store.getState(), KEY).newer).toBeUndefined();
    const latest = numbersInMemory(app);
    expect(latest.at(-1)).toBe(MESSAGES - 1);
    expect(contiguous(latest)).toBe(true);
    expect(app.flat()).not.toContain('newer messages load');
  });
});
