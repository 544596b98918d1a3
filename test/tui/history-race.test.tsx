import { afterEach, describe, expect, it } from 'vitest';
import { openApp, type AppHarness } from './support/app-harness.js';
import { operatorFake } from './support/operator-module.js';

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('the first history page landing after the operator has already chatted', () => {
  it('keeps the message and its reply, shows each once, and puts the older history above them', async () => {
    let release: () => void = () => undefined;
    const holdHistory = new Promise<void>((resolve) => {
      release = resolve;
    });
    h = await openApp([operatorFake({ history: 2, holdHistory }).factory]);
    const app = h;
    await expect.poll(() => app.flat()).toContain('● open');

    app.type('first\r');
    await expect.poll(() => app.flat()).toContain('echo: first');

    // The page was read before the message was sent, so it holds only the older history.
    release();
    await expect.poll(() => app.flat()).toContain('history message 1');
    const screen = app.flat();
    expect(count(screen, '› first')).toBe(1);
    expect(count(screen, 'echo: first')).toBe(1);
    expect(screen.indexOf('history message 1')).toBeLessThan(screen.indexOf('› first'));
  });
});
