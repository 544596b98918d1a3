import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, openApp, type AppHarness } from './support/app-harness.js';
import { operatorFake } from './support/operator-module.js';

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('slash-command completion when commands.list answers arrive out of order', () => {
  it('keeps the newest list: a slow first answer without a server prompt does not hide it', async () => {
    let release: () => void = () => undefined;
    const holdFirstCommands = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = operatorFake({ holdFirstCommands, laterCommands: [{ name: 'deploy', aliases: [], args: '', description: 'ship the release' }] });
    h = await openApp([fake.factory]);
    const app = h;
    await expect.poll(() => app.flat()).toContain('● open');

    // A server's prompts arrive while the first answer is on its way: the TUI asks again, and that answer lands first.
    fake.bus().emit('mcp.changed', { server: 'local', part: 'prompts', servers: [] });
    app.type('/dep');
    await expect.poll(() => app.flat(), { timeout: 10_000 }).toContain('/deploy');

    release();
    // Time for the older answer to land on loopback; then the completion is drawn again from what the TUI holds.
    await new Promise((resolve) => setTimeout(resolve, 300));
    app.type(KEYS.backspace);
    app.type('p');
    await expect.poll(() => app.flat()).toContain('/dep');
    expect(app.flat()).toContain('/deploy');
  });
});
