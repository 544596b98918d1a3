import { afterEach, describe, expect, it } from 'vitest';
import { type AppHarness, openApp as openHarness } from './support/app-harness.js';
import { approvalFixture } from './support/fixtures.js';
import { operatorFake, type OperatorFake } from './support/operator-module.js';

const ENTER = '\r';
const TAB = '\t';
const ESC = '\x1b';
const CTRL_C = '\x03';

type Harness = AppHarness & { fake: OperatorFake };

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function openApp(options: Parameters<typeof operatorFake>[0] = {}, size = { cols: 100, rows: 30 }): Promise<Harness> {
  const fake = operatorFake(options);
  const app = await openHarness([fake.factory], size);
  cleanup.push(() => app.stop());
  return { ...app, fake };
}

const callsOf = (fake: OperatorFake, method: string) =>
  fake.calls
    .filter((c) => c.method === method)
    .map((c) => c.params)
    // On connect the TUI asks for /model (to say "no model configured" early), /think (the level the
    // footer names) and /context json (the context report the snapshot lacks); tests look at what the user ran.
    .filter((p) => !(method === 'commands.run' && ['/model', '/think', '/context json'].includes((p as { text: string }).text)));
/** The frame's text without colours and line breaks, for sentences that may wrap. */
const flat = (frame: string): string => frame.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, ' ');
/** Past the approval guard: the prompt has been visible and the keyboard quiet long enough. */
const PAUSE = 600;

describe('TUI against a real gateway socket', () => {
  it('submits text and Enter arriving in one chunk exactly once and shows the reply', async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('hello there\r');
    await expect.poll(() => h.frame()).toContain('echo: hello there');
    expect(callsOf(h.fake, 'chat.send')).toMatchObject([{ sessionKey: 'agent:main:main', text: 'hello there' }]);
    expect(h.frame()).toContain('› hello there');
  });

  it('keeps a multi-line paste as one message', async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('\x1b[200~first line\rsecond line\x1b[201~');
    await expect.poll(() => h.frame()).toContain('second line');
    h.type(ENTER);
    await expect.poll(() => callsOf(h.fake, 'chat.send')).toHaveLength(1);
    expect(callsOf(h.fake, 'chat.send')[0]).toMatchObject({ text: 'first line\nsecond line' });
  });

  it("completes the gateway's slash commands and their argument values from commands.list, and runs them there", async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('/st');
    await expect.poll(() => h.frame()).toContain('Gateway and session status');
    h.type(TAB);
    await expect.poll(() => h.frame()).toContain('❯ /status');
    h.type(ENTER);
    await expect.poll(() => h.frame()).toContain('ran /status');
    expect(callsOf(h.fake, 'commands.run')).toMatchObject([{ text: '/status' }]);
    h.type('/think h');
    await expect.poll(() => h.frame()).toContain('high');
    expect(h.frame()).not.toContain('low');
  });

  it("!command runs in the owner's shell through the gateway's /sh; a lone ! is just a message", async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('!ls -la\r');
    await expect.poll(() => callsOf(h.fake, 'commands.run')).toMatchObject([{ text: '/sh ls -la' }]);
    h.type('!\r');
    await expect.poll(() => callsOf(h.fake, 'chat.send')).toMatchObject([{ text: '!' }]);
  });

  it('sends commands the TUI does not know to commands.run', async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('/usage today\r');
    await expect.poll(() => h.frame()).toContain('ran /usage today');
    // The command is echoed above its output.
    const lines = h.frame().split('\n');
    expect(lines.findIndex((l) => l.includes('» /usage today'))).toBeLessThan(lines.findIndex((l) => l.includes('ran /usage today')));
    expect(lines.findIndex((l) => l.includes('» /usage today'))).toBeGreaterThan(-1);
    expect(callsOf(h.fake, 'commands.run')).toMatchObject([{ text: '/usage today' }]);
  });

  it('answers approvals from the keyboard: y once, s session, a always after confirming, n deny', async () => {
    const pending = ['ap-1', 'ap-2', 'ap-3', 'ap-4'].map((id) => approvalFixture({ id, command: `echo ${id}`, expiresAt: Date.now() + 600_000 }));
    const h = await openApp({ pending });
    await expect.poll(() => h.frame()).toContain('$ echo ap-1');
    expect(h.frame()).toContain('+3 more waiting');
    h.advance(PAUSE);
    h.type('y');
    await expect.poll(() => h.frame()).toContain('$ echo ap-2');
    h.advance(PAUSE);
    h.type('s');
    await expect.poll(() => h.frame()).toContain('$ echo ap-3');
    h.advance(PAUSE);
    h.type('a');
    await expect.poll(() => h.frame()).toContain('Always allow for agent main');
    expect(callsOf(h.fake, 'approvals.resolve')).toHaveLength(2);
    h.advance(PAUSE);
    h.type('y');
    await expect.poll(() => h.frame()).toContain('$ echo ap-4');
    h.advance(PAUSE);
    h.type('n');
    await expect.poll(() => h.frame()).not.toContain('y once · s this session');
    expect(callsOf(h.fake, 'approvals.resolve')).toMatchObject([
      { id: 'ap-1', decision: 'once' },
      { id: 'ap-2', decision: 'session' },
      { id: 'ap-3', decision: 'always' },
      { id: 'ap-4', decision: 'deny' },
    ]);
    expect(h.frame()).toContain('Approval for `echo ap-4` denied by');
  });

  it('leaves an approval pending on Esc and closes it when it is decided elsewhere', async () => {
    const approval = approvalFixture({ expiresAt: Date.now() + 600_000 });
    const h = await openApp({ pending: [approval] });
    await expect.poll(() => h.frame()).toContain('y once · s this session');
    h.type(ESC);
    await expect.poll(() => h.frame()).not.toContain('y once · s this session');
    expect(h.frame()).toContain('⚠ 1 approval');
    h.type('/approvals\r');
    await expect.poll(() => h.frame()).toContain('y once · s this session');
    h.fake.bus().emit('approval.resolved', { approval: { ...approval, status: 'approved', decision: 'once', resolvedBy: 'phone-app' } });
    await expect.poll(() => flat(h.frame())).toContain('approved (once) by phone-app');
    expect(h.frame()).not.toContain('y once · s this session');
    expect(callsOf(h.fake, 'approvals.resolve')).toHaveLength(0);
  });

  it('clears the input on the first Ctrl+C and exits on the second', async () => {
    const h = await openApp();
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('draft text');
    await expect.poll(() => h.frame()).toContain('draft text');
    h.type(CTRL_C);
    await expect.poll(() => h.frame()).toContain('Ctrl+C again to quit');
    expect(h.frame()).not.toContain('draft text');
    expect(h.exited()).toBe(0);
    h.type(CTRL_C);
    await expect.poll(() => h.exited()).toBe(1);
  });

  it('renders at 80×24 with every pane after Ctrl+L and pages history on PgUp', async () => {
    const h = await openApp({ history: 60 }, { cols: 80, rows: 24 });
    await expect.poll(() => h.frame()).toContain('history message 59');
    // Empty side panes stay out of the way until asked for.
    expect(h.frame()).not.toContain('Sessions');
    h.type('\x0c');
    await expect.poll(() => h.frame()).toContain('Sessions');
    const frame = h.frame();
    for (const title of ['Sessions', 'Context', 'Lanes']) expect(frame).toContain(title);
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
    h.type('\x1b[5~');
    await expect.poll(() => h.frame()).toContain('scrolled');
    expect(h.frame()).not.toContain('history message 59');
  });
});
