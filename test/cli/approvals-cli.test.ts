import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayInfoSync } from '../../source/client/gateway-info.js';
import { hashToken } from '../../source/config/index.js';
import { readGatewayInfoSync } from '../../source/client/index.js';
import type { ApprovalRecord } from '../../source/protocol/index.js';
import type { ToolContext, ToolResult, ToolsRuntime } from '../../source/tools/index.js';
import { waitFor } from '../gateway/raw-client.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt, isAlive, runClaw } from './cli-process.js';

// Every step spawns a real CLI process; on a loaded 2-core machine that takes seconds.
const SLOW = 180_000;

beforeAll(assertBuilt);

let gateway: TestGateway | undefined;
let childState: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  if (childState) {
    const info = readGatewayInfoSync(childState.paths);
    if (info && isAlive(info.pid)) {
      process.kill(info.pid, 'SIGKILL');
      await waitFor(() => !isAlive(info.pid), `gateway pid ${info.pid} to exit`);
    }
    childState.cleanup();
    childState = undefined;
  }
});

/**
 * The CLI finds a gateway through gateway.json and the token file of its
 * state dir; this in-process gateway publishes itself the same way the
 * daemon does, so the CLI child process dials it like any local gateway.
 */
async function startPublishedGateway() {
  gateway = await startTestGateway({ core: {} });
  const runtime: ToolsRuntime = gateway.core.tools;
  const { state, url, token } = gateway;
  writeGatewayInfoSync(state.paths, {
    pid: process.pid,
    port: Number(new URL(url).port),
    bind: '127.0.0.1',
    tokenHash: hashToken(token),
    startedAt: Date.now(),
    version: 'test',
    epoch: 'test',
  });
  const workspace = state.paths.workspace('main');
  mkdirSync(workspace, { recursive: true });
  const rt = runtime;
  const context: ToolContext = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: workspace,
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    approvals: rt.inbox.gate('main', 'agent:main:main'),
  };
  /** Runs the real exec tool; resolves once its approval request is pending. */
  const execAsking = async (command: string): Promise<{ record: ApprovalRecord; result: Promise<ToolResult> }> => {
    const before = new Set(rt.inbox.list('all').map((r) => r.id));
    const result = rt.registry.invoke('exec', { command }, context);
    await waitFor(() => rt.inbox.list().some((r) => !before.has(r.id)), `an approval request for ${command}`);
    return { record: rt.inbox.list().find((r) => !before.has(r.id))!, result };
  };
  const claw = (...args: string[]) => runClaw(['approvals', ...args], state.env);
  return { rt, context, workspace, execAsking, claw };
}

describe('claw approvals against a gateway with a pending exec request', () => {
  it(
    'lists pending requests in full, approves once, denies by id prefix, and refuses a second answer',
    async () => {
      const { execAsking, claw, workspace } = await startPublishedGateway();
      const long = `touch ${'a'.repeat(120)} ${'b'.repeat(120)} ${'c'.repeat(120)}`;
      const pendingLong = await execAsking(long);
      const pendingShort = await execAsking('touch approved-file');

      const listed = await claw('list');
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('2 pending approvals:');
      for (const { record } of [pendingLong, pendingShort]) expect(listed.stdout).toContain(`id       ${record.id}`);
      expect(listed.stdout).toContain(`command  ${long}\n`);
      expect(listed.stdout).toContain('agent    main');
      expect(listed.stdout).toContain('session  agent:main:main');
      expect(listed.stdout).toContain(`cwd      ${workspace}`);
      expect(listed.stdout).toMatch(/status {3}pending, asked \S+ ago, expires in \S+\n/);

      const json = JSON.parse((await claw('list', '--json')).stdout) as { approvals: ApprovalRecord[] };
      expect(json.approvals.map((a) => a.command).sort()).toEqual([long, 'touch approved-file'].sort());

      const approved = await claw('approve', pendingShort.record.id);
      expect(approved.stderr).toBe('');
      expect(approved.stdout).toBe(`Approved ${pendingShort.record.id} this one time:\n  touch approved-file\n`);
      expect((await pendingShort.result).isError).toBe(false);
      expect(existsSync(join(workspace, 'approved-file'))).toBe(true);

      const denied = await claw('deny', pendingLong.record.id.slice(0, 8));
      expect(denied).toMatchObject({ code: 0, stdout: `Denied ${pendingLong.record.id}:\n  ${long}\n` });
      expect((await pendingLong.result).isError).toBe(true);

      const again = await claw('approve', pendingLong.record.id);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        new RegExp(`approval ${pendingLong.record.id} was already decided: denied by claw-[0-9a-f]{8} \\S+ ago\\. The first answer wins\\.`),
      );
      expect((await claw('list')).stdout).toBe('No pending approvals.\n');
      const history = await claw('list', '--all');
      expect(history.stdout).toContain('0 pending approvals, 2 decided:');
      expect(history.stdout).toContain('approved (once) by claw-');
    },
    SLOW,
  );

  it(
    '--always prints the rule written and what it would have matched; --session covers the session',
    async () => {
      const { execAsking, claw, rt, context, workspace } = await startPublishedGateway();
      const first = await execAsking('touch made');
      expect((await claw('deny', first.record.id)).code).toBe(0);
      await first.result;

      const second = await execAsking('touch made');
      const always = await claw('approve', second.record.id, '--always');
      expect(always.stderr).toBe('');
      expect(always.stdout).toContain(`Approved ${second.record.id} always:\n  touch made\n`);
      expect(always.stdout).toMatch(/Rule written for agent main: \S*\/touch "made" \(in \S+\)\n/);
      expect(always.stdout).toContain('It would have matched 1 recent command:\n  touch made\n');
      expect((await second.result).isError).toBe(false);
      expect(existsSync(join(workspace, 'made'))).toBe(true);

      const third = await execAsking('touch in-session');
      const session = await claw('approve', '--session', third.record.id);
      expect(session.stdout).toBe(`Approved ${third.record.id} for the rest of session agent:main:main:\n  touch in-session\n`);
      expect((await third.result).isError).toBe(false);
      expect((await rt.registry.invoke('exec', { command: 'touch in-session' }, context)).isError).toBe(false);
      expect(rt.inbox.list()).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'shows control characters escaped, and refuses bad usage and unknown ids with a clear message',
    async () => {
      const { claw, execAsking } = await startPublishedGateway();
      const hidden = await execAsking("touch 'x\u001b[2K\rinnocent'");
      const listed = await claw('list');
      expect(listed.stdout).toContain("command  touch 'x\\e[2K\\rinnocent'\n");
      expect(listed.stdout).toContain('warning  ⚠ 2 hidden or control characters');
      expect(listed.stdout).not.toContain('\u001b');
      expect((await claw('deny', hidden.record.id)).code).toBe(0);
      expect((await hidden.result).isError).toBe(true);
      expect(await claw('approve')).toMatchObject({ code: 2, stderr: expect.stringContaining('approve needs an approval ID') });
      expect(await claw('approve', 'x', '--session', '--always')).toMatchObject({ code: 2, stderr: expect.stringContaining('either --session or --always') });
      expect(await claw('deny', 'x', '--always')).toMatchObject({ code: 2, stderr: expect.stringContaining('--always only applies to `approve`') });
      expect(await claw('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown action "frobnicate"') });
      const unknown = await claw('approve', 'no-such-id');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No approval request "no-such-id". Run `claw approvals list`');
    },
    SLOW,
  );
});

describe('claw approvals against the daemon', () => {
  it(
    'talks to a gateway started with `claw gateway start`, and says when none is running',
    async () => {
      childState = makeTempState();
      const none = await runClaw(['approvals'], childState.env);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('No gateway is running for this state dir. Start one with `claw gateway start`.');

      const started = await runClaw(['gateway', 'start', '--port', '0'], childState.env);
      expect(started.code).toBe(0);
      const listed = await runClaw(['approvals', 'list'], childState.env);
      expect(listed).toMatchObject({ code: 0, stdout: 'No pending approvals.\n', stderr: '' });
      expect(JSON.parse((await runClaw(['approvals', '--json'], childState.env)).stdout)).toEqual({ approvals: [] });
      const unknown = await runClaw(['approvals', 'deny', 'no-such-id'], childState.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No approval request "no-such-id"');
      expect((await runClaw(['gateway', 'stop'], childState.env)).code).toBe(0);
    },
    SLOW,
  );
});
