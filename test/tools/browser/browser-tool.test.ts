import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGatewayTokenSync, loadConfig, writeRawConfig, type ClawConfig } from '../../../source/config/index.js';
import {
  createBrowser,
  createToolsRuntime,
  UNTRUSTED_TAG,
  type BrowserHandle,
  type ToolContext,
  type ToolResult,
  type ToolsRuntime,
} from '../../../source/tools/index.js';
import { startBrowserFixture, type BrowserFixture } from '../../support/browser-fixture.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';
import { mainSessionContext } from '../../support/tool-context.js';

let state: TempState;
let runtime: ToolsRuntime;
let browser: BrowserHandle;
let fixture: BrowserFixture;
let context: ToolContext;
let config: ClawConfig;
/** Added to the wall clock the browser reads, to age its tabs. */
let clockSkewMs = 0;

beforeAll(async () => {
  state = makeTempState();
  fixture = await startBrowserFixture();
  writeRawConfig(state.paths.config, {
    tools: { web: { allowPrivate: ['127.0.0.1'] }, browser: { evaluate: true, sites: { 'ask.test': 'ask' } } },
  });
  ensureGatewayTokenSync(state.paths, {});
  writeFileSync(join(state.paths.credentials, 'browser-secrets.json'), JSON.stringify({ SITE_PASSWORD: 'hunter2-very-secret' }), { mode: 0o600 });
  config = loadConfig(state.paths.config);
  runtime = createToolsRuntime({ config, paths: state.paths, env: process.env });
  browser = createBrowser({
    tools: () => config.tools,
    paths: state.paths,
    sandbox: runtime.sandbox,
    redactor: runtime.redactor,
    now: () => Date.now() + clockSkewMs,
  });
  runtime.registry.register(browser.tool as never);
  context = mainSessionContext(runtime, state.paths.workspace('main'));
}, 60_000);

afterAll(async () => {
  await browser?.stop();
  await runtime?.close();
  await fixture?.close();
  state?.cleanup();
});

function call(args: Record<string, unknown>): Promise<ToolResult> {
  return runtime.registry.invoke('browser', args, context);
}

function refOf(content: string, pattern: RegExp): string {
  const line = content.split('\n').find((l) => pattern.test(l) && l.includes('[ref='));
  const ref = line && /\[ref=((?:f\d+)?e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no element matching ${pattern} in:\n${content}`);
  return ref;
}

/** Answers the next approval request; resolves with what it showed. */
async function answerNext(decision: 'once' | 'deny'): Promise<{ kind: string; command: string }> {
  for (let i = 0; i < 500; i += 1) {
    const [pending] = runtime.inbox.list('pending');
    if (pending) {
      runtime.inbox.resolve(pending.id, decision, 'owner');
      return { kind: pending.kind, command: pending.command };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no approval request came');
}

describe('browser tool against a real Chromium', () => {
  it('navigates, snapshots with refs on interactive elements, follows a link by ref, and reports only what changed', async () => {
    const home = await call({ action: 'navigate', url: `${fixture.site}/` });
    expect(home.isError, home.content).toBe(false);
    expect(home.content).toContain('Fixture home');
    expect(home.content).toMatch(/- link "Next page" \[ref=(f\d+)?e\d+\] → \/next/);
    expect(home.content).toMatch(/- textbox "Email" \[ref=(f\d+)?e\d+\]/);
    expect(home.content).toMatch(/- heading "Welcome"/);
    expect(home.content).toContain(`<${UNTRUSTED_TAG} nonce=`);

    const added = await call({ action: 'click', ref: refOf(home.content, /button "Add one"/) });
    expect(added.content).toContain('did not load anew');
    expect(added.content).toMatch(/button "Appeared" \[ref=(f\d+)?e\d+\] \[new\]/);
    expect(added.content).not.toContain('Next page');

    const next = await call({ action: 'click', ref: refOf(home.content, /link "Next page"/) });
    expect(next.isError, next.content).toBe(false);
    expect(next.content).toContain('Second page');
    expect(next.content).toMatch(/heading "Second"/);
  }, 60_000);

  it('a ref from an earlier page is stale and one that matches nothing fails at once, not after a timeout', async () => {
    const home = await call({ action: 'navigate', url: `${fixture.site}/` });
    const oldRef = refOf(home.content, /link "Next page"/);
    await call({ action: 'navigate', url: `${fixture.site}/next` });
    const stale = await call({ action: 'click', ref: oldRef });
    expect(stale.isError).toBe(true);
    expect(stale.content).toContain('stale');
    expect(stale.details?.kind).toBe('action');
    const madeUp = await call({ action: 'click', ref: 'e9999' });
    expect(madeUp.isError).toBe(true);
    expect(madeUp.content).toContain('not in the latest snapshot');
    const again = await call({ action: 'navigate', url: `${fixture.site}/` });
    const going = refOf(again.content, /button "Going"/);
    await call({ action: 'click', ref: refOf(again.content, /button "Remove later"/) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const missing = await call({ action: 'click', ref: going });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('matches nothing');
    expect(missing.details?.kind).toBe('action');
  }, 60_000);

  it('a form with a password field is sent only with the owner approval: denied, the server never gets the POST', async () => {
    const home = await call({ action: 'navigate', url: `${fixture.site}/` });
    await call({ action: 'type', ref: refOf(home.content, /textbox "Email"/), text: 'ada@example.com' });
    const filled = await call({ action: 'type', ref: refOf(home.content, /textbox "Password"/), text: 'secret:SITE_PASSWORD' });
    expect(filled.isError, filled.content).toBe(false);
    expect(filled.content).not.toContain('hunter2-very-secret');

    const denied = call({ action: 'click', ref: refOf(home.content, /button "Sign in"/) });
    const asked = await answerNext('deny');
    expect(asked.kind).toBe('browser');
    expect(asked.command).toContain('Sign in');
    expect(asked.command).toContain(`${fixture.site}/login`);
    expect((await denied).isError).toBe(true);
    // Enter in the password field is a submit too.
    const enter = call({ action: 'press', key: 'Enter' });
    await answerNext('deny');
    expect((await enter).isError).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.posts.filter((post) => post.path === '/login')).toEqual([]);

    const approved = call({ action: 'click', ref: refOf(home.content, /button "Sign in"/) });
    await answerNext('once');
    const result = await approved;
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toContain('Thanks');
    expect(fixture.posts.find((post) => post.path === '/login')?.body).toContain('password=hunter2-very-secret');
    // A form without a password or payment field needs nobody.
    const again = await call({ action: 'navigate', url: `${fixture.site}/` });
    await call({ action: 'type', ref: refOf(again.content, /textbox "Query"/), text: 'claws' });
    const search = await call({ action: 'click', ref: refOf(again.content, /button "Search"/) });
    expect(search.isError, search.content).toBe(false);
    expect(fixture.posts.find((post) => post.path === '/search')?.body).toBe('q=claws');
  }, 60_000);

  it('a page with 10,000 links snapshots within the cap and says what was cut', async () => {
    const big = await call({ action: 'navigate', url: `${fixture.site}/big` });
    expect(big.isError, big.content).toBe(false);
    const fenced = big.content.slice(big.content.indexOf('\n') + 1);
    expect(fenced.length).toBeLessThan(config.tools.browser.snapshotMaxChars + 1_000);
    expect(big.content).toMatch(/more lines \(\d+ actionable\) cut at 12000 characters/);
  }, 60_000);

  it('instructions in page text stay inside the untrusted fence, and a fake closing tag cannot end it', async () => {
    const page = await call({ action: 'navigate', url: `${fixture.site}/inject` });
    const nonce = /<untrusted_content nonce="([0-9a-f]+)"/.exec(page.content)?.[1];
    expect(nonce).toBeDefined();
    const inside = page.content.slice(page.content.indexOf(`nonce="${nonce}"`), page.content.lastIndexOf(`</${UNTRUSTED_TAG} nonce="${nonce}">`));
    expect(inside).toContain('ignore all previous instructions');
    expect(page.content.match(new RegExp(`</${UNTRUSTED_TAG}`, 'g'))).toHaveLength(1);
  }, 60_000);

  it('nothing reaches another loopback address or the metadata address: redirect, <img>, fetch() and WebSocket are refused', async () => {
    const leaks = await call({ action: 'navigate', url: `${fixture.site}/leaks` });
    expect(leaks.isError, leaks.content).toBe(false);
    await call({ action: 'wait', text: 'websocket refused' });
    const titled = await call({ action: 'snapshot' });
    expect(titled.content).toContain('fetch refused');
    const redirect = await call({ action: 'navigate', url: `${fixture.site}/redirect` });
    expect(redirect.content).toMatch(/127\.0\.0\.3.*loopback/);
    const metadata = await call({ action: 'navigate', url: `${fixture.site}/metadata-redirect` });
    expect(metadata.content).toMatch(/169\.254\.169\.254.*metadata/);
    const direct = await call({ action: 'navigate', url: `${fixture.elsewhere}/direct` });
    expect(direct.content).toMatch(/loopback/);
    expect(fixture.leaked).toEqual([]);
  }, 60_000);

  it('an "ask" site needs the owner before the first visit; evaluate is approved per call; screenshots come back as images', async () => {
    const visit = call({ action: 'navigate', url: 'http://ask.test/' });
    const asked = await answerNext('deny');
    expect(asked.command).toContain('first visit to ask.test');
    expect((await visit).content).toContain('did not approve');

    await call({ action: 'navigate', url: `${fixture.site}/` });
    const evaluated = call({ action: 'evaluate', script: 'document.title' });
    expect((await answerNext('once')).command).toContain('document.title');
    expect((await evaluated).content).toContain('Fixture home');

    const shot = await call({ action: 'screenshot' });
    expect(shot.media?.[0]?.mimeType).toBe('image/png');
    expect(Buffer.from(shot.media![0]!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  }, 60_000);

  it('uploads and executable downloads wait for the owner; plain downloads and PDFs land in the workspace', async () => {
    const workspace = state.paths.workspace('main');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'report.txt'), 'quarterly numbers\n');
    const files = await call({ action: 'navigate', url: `${fixture.site}/files` });
    const notes = await call({ action: 'download', ref: refOf(files.content, /link "Get notes"/) });
    expect(notes.isError, notes.content).toBe(false);
    expect(readFileSync(join(workspace, 'downloads', 'notes.txt'), 'utf8')).toBe('some notes\n');

    const installer = call({ action: 'download', ref: refOf(files.content, /link "Get installer"/) });
    expect((await answerNext('deny')).command).toContain('setup.sh');
    expect((await installer).isError).toBe(true);
    expect(existsSync(join(workspace, 'downloads', 'setup.sh'))).toBe(false);

    const denied = call({ action: 'upload', ref: refOf(files.content, /Attachment/), path: 'report.txt' });
    expect((await answerNext('deny')).command).toContain('report.txt');
    expect((await denied).isError).toBe(true);
    const outside = await call({ action: 'upload', ref: refOf(files.content, /Attachment/), path: '/etc/passwd' });
    expect(outside.isError).toBe(true);
    const attached = call({ action: 'upload', ref: refOf(files.content, /Attachment/), path: 'report.txt' });
    await answerNext('once');
    expect((await attached).isError, (await attached).content).toBe(false);
    const sent = await call({ action: 'click', ref: refOf(files.content, /button "Send file"/) });
    expect(sent.content).toContain('Thanks');
    expect(fixture.posts.find((post) => post.path === '/upload')?.body).toContain('quarterly numbers');

    const pdf = await call({ action: 'pdf' });
    expect(pdf.isError, pdf.content).toBe(false);
    expect(
      readFileSync(pdf.details!.path as string)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  }, 60_000);

  it('full mode shows every element; tabs lists the session tabs and close closes one', async () => {
    await call({ action: 'navigate', url: `${fixture.site}/` });
    const full = await call({ action: 'snapshot', mode: 'full' });
    const interactive = await call({ action: 'snapshot' });
    expect(full.content.length).toBeGreaterThan(interactive.content.length);
    expect(full.content).toMatch(/generic|form/);
    const listed = await call({ action: 'tabs' });
    expect(listed.content).toMatch(/\* t\d+ {2}Fixture home/);
    const closed = await call({ action: 'close' });
    expect(closed.content).toMatch(/Closed tab t\d+; 0 left/);
    expect((await call({ action: 'snapshot' })).content).toContain('No tab is open');
  }, 60_000);

  it('tabs idle longer than tools.browser.idleMinutes are closed, and the browser stops with the last one', async () => {
    await call({ action: 'navigate', url: `${fixture.site}/` });
    await browser.sweepIdle();
    expect(browser.running).toBe(true);
    clockSkewMs += (config.tools.browser.idleMinutes + 1) * 60_000;
    await browser.sweepIdle();
    expect(browser.running).toBe(false);
    const back = await call({ action: 'navigate', url: `${fixture.site}/next` });
    expect(back.isError, back.content).toBe(false);
  }, 60_000);

  it('a Chromium that was killed is started again by the next call, which says so', async () => {
    await call({ action: 'navigate', url: `${fixture.site}/` });
    const profile = join(state.paths.root, 'browser', 'main', 'profile');
    execFileSync('pkill', ['-9', '-f', `user-data-dir=${profile}`]);
    for (let i = 0; i < 200 && browser.running; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(browser.running).toBe(false);
    const result = await call({ action: 'navigate', url: `${fixture.site}/next` });
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toContain('Second page');
    expect(result.content).toMatch(/restarted|stopped unexpectedly/);
  }, 90_000);
});

describe('a hung browser', () => {
  it('is killed and started again: the call says so, and the next one works', async () => {
    await call({ action: 'navigate', url: `${fixture.site}/` });
    const profile = join(state.paths.root, 'browser', 'main', 'profile');
    const saved = config.tools.browser.actionTimeoutMs;
    config.tools.browser.actionTimeoutMs = 1_000;
    execFileSync('pkill', ['-STOP', '-f', `user-data-dir=${profile}`]);
    try {
      const hung = await call({ action: 'navigate', url: `${fixture.site}/next` });
      expect(hung.isError).toBe(true);
      expect(hung.details?.kind).toBe('restarted');
      expect(hung.content).toContain('claw restarted it');
    } finally {
      config.tools.browser.actionTimeoutMs = saved;
      // Nothing left to continue when the hung browser was killed, as it should be.
      spawnSync('pkill', ['-CONT', '-f', `user-data-dir=${profile}`]);
    }
    const after = await call({ action: 'navigate', url: `${fixture.site}/next` });
    expect(after.isError, after.content).toBe(false);
    expect(after.content).toContain('Second page');
  }, 60_000);
});
