import { silentLogger } from '../../source/config/index.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, systemClock } from '../../source/config/index.js';
import {
  discoverHooksSync,
  FrontmatterError,
  HookDispatcher,
  HookManifestError,
  parseFrontmatter,
  readHookSync,
  renderTemplate,
  signatureProblem,
  signWebhook,
} from '../../source/hooks/index.js';
import { RateLimiter } from '../../source/hooks/webhooks/rate-limiter.js';
import { ManualClock } from '../support/manual-clock.js';
import { writeHook } from './hook-fixtures.js';

let dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'claw-hook-parts-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('HOOK.md front matter', () => {
  it('reads maps, flow and block lists, quoted strings and numbers', () => {
    const { data, body } = parseFrontmatter(
      '---\nname: "pr-notes"\ndescription: \'It\'\'s a test\'\nevents: [tool:before, "message:received"]\nrequires:\n  bins:\n    - git\n    - gh\n  os: [linux]\ntimeoutMs: 2500\n---\n# Body\n',
    );
    expect(data).toEqual({
      name: 'pr-notes',
      description: "It's a test",
      events: ['tool:before', 'message:received'],
      requires: { bins: ['git', 'gh'], os: ['linux'] },
      timeoutMs: 2500,
    });
    expect(body).toBe('# Body\n');
  });

  it('reads YAML and refuses what is not valid, with the line number', () => {
    expect(parseFrontmatter('---\nname: x\ndescription: |\n  long\n---\n').data).toEqual({ name: 'x', description: 'long\n' });
    expect(() => parseFrontmatter('---\nname: x\nname: y\n---\n')).toThrow(/line 3: .*unique/);
    expect(() => parseFrontmatter('---\nname: [x\n---\n')).toThrow(FrontmatterError);
    expect(() => parseFrontmatter('name: x\n')).toThrow(FrontmatterError);
    expect(() => parseFrontmatter('---\nname: x\n')).toThrow(/never closed/);
  });

  it('names the file and the fix for a wrong manifest', () => {
    const root = tempDir();
    const noHandler = writeHook(root, 'lonely', 'events: [turn:end]');
    expect(() => readHookSync(noHandler, 'user')).toThrow(HookManifestError);
    expect(() => readHookSync(noHandler, 'user')).toThrow(`${join(noHandler, 'HOOK.md')}: needs a handler`);
    const both = writeHook(root, 'both', 'events: [turn:end]\ncommand: "true"', 'export default () => undefined;\n');
    expect(() => readHookSync(both, 'user')).toThrow(/has both a command and handler.mjs/);
    const noEvents = writeHook(root, 'quiet', 'events: []', 'export default () => undefined;\n');
    expect(() => readHookSync(noEvents, 'user')).toThrow(/events must list at least one of: gateway:startup/);
  });
});

describe('hook discovery', () => {
  it('prefers the user over the bundled over the workspace hook of the same name, and reports invalid folders', () => {
    const [workspace, user, bundled] = [tempDir(), tempDir(), tempDir()];
    writeHook(workspace, 'notes', 'events: [turn:end]', 'export default () => "workspace";\n');
    writeHook(user, 'notes', 'events: [turn:end]', 'export default () => "user";\n');
    writeHook(bundled, 'notes', 'events: [turn:end]', 'export default () => "bundled";\n');
    writeHook(bundled, 'other', 'events: [turn:start]', 'export default () => undefined;\n');
    writeHook(user, 'bad', 'events: [nope]', 'export default () => undefined;\n');
    mkdirSync(join(user, 'not-a-hook'));
    const found = discoverHooksSync({ workspace, user, bundled });
    expect(found.hooks.map((h) => [h.manifest.name, h.source])).toEqual([
      ['notes', 'user'],
      ['other', 'bundled'],
    ]);
    expect(found.shadowed.map((s) => s.dir)).toEqual([join(bundled, 'notes'), join(workspace, 'notes')]);
    expect(found.invalid).toEqual([expect.objectContaining({ dir: join(user, 'bad'), error: expect.stringContaining('unknown event "nope"') })]);
  });
});

describe('the dispatcher', () => {
  it('abandons an in-process handler at its timeout on the injected clock and records the error', async () => {
    const root = tempDir();
    writeHook(
      root,
      'slow',
      'events: [turn:end]\ntimeoutMs: 1000',
      'export default (event, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ block: true })));\n',
    );
    writeHook(root, 'fast', 'events: [turn:end]', 'export default () => ({ reason: "fine" });\n');
    const clock = new ManualClock();
    const dispatcher = new HookDispatcher({ clock, log: silentLogger, capabilities: { saveConversationToMemory: async () => undefined }, stateDir: root });
    const config = configSchema.parse({ hooks: { entries: { slow: { enabled: true }, fast: { enabled: true } } } }).hooks;
    dispatcher.load(discoverHooksSync({ user: root }).hooks, config);
    const pending = dispatcher.dispatch('turn:end', { sessionKey: 'agent:main:main', runId: 'r1', status: 'end' });
    // Time moves only once the slow handler is loaded and waiting on its timer.
    for (let i = 0; i < 400 && clock.pendingTimers() < 1; i += 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(999);
    await new Promise((r) => setTimeout(r, 20));
    expect(dispatcher.status().find((h) => h.name === 'slow')?.lastError).toBeUndefined();
    clock.advance(1);
    expect(await pending).toEqual([{ hook: 'fast', result: { reason: 'fine' } }]);
    expect(dispatcher.status().find((h) => h.name === 'slow')?.lastError).toMatchObject({
      event: 'turn:end',
      message: 'slow took longer than 1000 ms and was abandoned',
    });
  });
});

describe('command hooks', () => {
  it('kill the whole process group at the timeout and record it; exit 2 blocks with stderr as the reason', async () => {
    const root = tempDir();
    const pidFile = join(root, 'child.pid');
    writeHook(root, 'stuck', `events: [tool:before]\ntimeoutMs: 300\ncommand: sleep 30 & echo $! > ${pidFile}; wait`);
    writeHook(root, 'veto', 'events: [tool:before]\ncommand: cat > /dev/null; echo "not on Fridays" >&2; exit 2');
    const dispatcher = new HookDispatcher({
      clock: systemClock,
      log: silentLogger,
      capabilities: { saveConversationToMemory: async () => undefined },
      stateDir: root,
    });
    dispatcher.load(
      discoverHooksSync({ user: root }).hooks,
      configSchema.parse({ hooks: { entries: { stuck: { enabled: true }, veto: { enabled: true } } } }).hooks,
    );
    const started = Date.now();
    const answers = await dispatcher.dispatch('tool:before', { sessionKey: 'agent:main:main', runId: 'r1', tool: 'exec', args: {} });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answers).toEqual([{ hook: 'veto', result: { block: true, reason: 'not on Fridays' } }]);
    expect(dispatcher.status().find((h) => h.name === 'stuck')?.lastError?.message).toContain('took longer than 300 ms and was killed');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    // Gone, or a zombie waiting for a reaper (the container's init may never reap it): not running either way.
    const state = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] : 'gone';
    expect(['gone', 'Z']).toContain(state);
  });
});

describe('webhook parts', () => {
  it('signs like an independent HMAC-SHA256 (openssl) over "id.timestamp.body" with the decoded whsec_ key', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    const body = '{"event":"push","ref":"refs/heads/main"}';
    const expected = execFileSync('openssl', ['dgst', '-sha256', '-mac', 'HMAC', '-macopt', `hexkey:${key.toString('hex')}`, '-binary'], {
      input: `msg_1.1733040000.${body}`,
    }).toString('base64');
    expect(signWebhook(secret, 'msg_1', 1733040000, body)).toBe(`v1,${expected}`);
    const check = { secret, id: 'msg_1', timestamp: '1733040000', body: Buffer.from(body), nowMs: 1733040000_000, toleranceSeconds: 300 };
    expect(signatureProblem({ ...check, signature: `v1,bm90IGl0 v1,${expected}` })).toBeUndefined();
    expect(signatureProblem({ ...check, signature: `v1,${expected}`, nowMs: (1733040000 + 301) * 1000 })).toMatch(/301 s away/);
    expect(signatureProblem({ ...check, signature: `v2,${expected}` })).toMatch(/does not match/);
  });

  it('fills templates from nested fields and lists, leaving missing ones empty', () => {
    const data = { a: { b: [{ c: 'deep' }] }, tags: ['x', 'y'], n: 3, obj: { k: 1 } };
    expect(renderTemplate('{{a.b.0.c}} {{tags}} {{n}} {{obj}} [{{missing.path}}]', data)).toBe('deep x, y 3 {"k":1} []');
  });

  it('limits per route per minute and says exactly when to retry', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    expect(limiter.take('a', 2)).toBeUndefined();
    expect(limiter.take('a', 2)).toBeUndefined();
    clock.advance(15_000);
    expect(limiter.take('a', 2)).toBe(45);
    expect(limiter.take('b', 2)).toBeUndefined();
    clock.advance(45_000);
    expect(limiter.take('a', 2)).toBeUndefined();
  });
});
