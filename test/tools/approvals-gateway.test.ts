import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../source/config/index.js';
import { readExecApprovalsFile, type ToolsRuntime } from '../../source/tools/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import type { ApprovalRecord } from '../../source/protocol/index.js';

let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function start(clock = { now: Date.now() }) {
  gateway = await startTestGateway({ core: { clock: { ...systemClock, now: () => clock.now } } });
  const runtime: ToolsRuntime = gateway.core.tools;
  mkdirSync(gateway.state.paths.workspace('main'), { recursive: true });
  const ask = (command: string) =>
    runtime.inbox.request({ kind: 'exec', command, cwd: gateway!.state.dir, envKeys: [], reason: 'test', agentId: 'main', sessionKey: 'agent:main:main' });
  return { runtime: () => runtime, ask, clock };
}

describe('approvals over a real gateway', () => {
  it('a second client sees the request, resolves it; the first answer wins', async () => {
    const { ask } = await start();
    const watcher = await gateway!.connect();
    const seen: ApprovalRecord[] = [];
    watcher.on('approval.requested', (payload) => seen.push((payload as { approval: ApprovalRecord }).approval));
    const outcome = ask('touch x');
    await waitFor(() => seen.length === 1, 'approval.requested');
    const operator = await gateway!.connect({ clientName: 'operator' });
    const listed = await operator.request('approvals.list', {});
    expect(listed.approvals.map((a) => a.id)).toEqual([seen[0]!.id]);
    const resolved = await operator.request('approvals.resolve', { id: seen[0]!.id, decision: 'once' });
    expect(resolved.approval.status).toBe('approved');
    expect(await outcome).toMatchObject({ approved: true, decision: 'once' });
    await expect(watcher.request('approvals.resolve', { id: seen[0]!.id, decision: 'deny' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('only clients with the approvals scope may resolve', async () => {
    const { ask } = await start();
    void ask('touch y');
    const reader = await gateway!.connect({ scopes: ['read'] });
    const [pending] = (await reader.request('approvals.list', {})).approvals;
    await expect(reader.request('approvals.resolve', { id: pending!.id, decision: 'once' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('pending approvals are in the hello snapshot of a client that attaches later', async () => {
    const { ask } = await start();
    void ask('touch later');
    const late = await gateway!.connect();
    const snapshot = late.hello?.snapshot as { approvals?: ApprovalRecord[] } | undefined;
    expect(snapshot?.approvals?.map((a) => a.command)).toEqual(['touch later']);
  });

  it('expires to deny on the injected clock', async () => {
    const { ask, runtime, clock } = await start({ now: 1_000_000 });
    const watcher = await gateway!.connect();
    const resolvedEvents: ApprovalRecord[] = [];
    watcher.on('approval.resolved', (payload) => resolvedEvents.push((payload as { approval: ApprovalRecord }).approval));
    const outcome = ask('touch late');
    clock.now += 31 * 60_000;
    runtime().inbox.expireDue();
    expect(await outcome).toMatchObject({ approved: false, status: 'expired' });
    await waitFor(() => resolvedEvents.length === 1, 'approval.resolved');
    expect(resolvedEvents[0]!.status).toBe('expired');
  });

  it('"always" writes an exact-argv rule and reports recent matches', async () => {
    const { runtime } = await start();
    const rt = runtime();
    const context = {
      agentId: 'main',
      sessionKey: 'agent:main:main',
      sessionType: 'main',
      workspaceDir: gateway!.state.paths.workspace('main'),
      signal: new AbortController().signal,
      onUpdate: () => undefined,
      approvals: rt.inbox.gate('main', 'agent:main:main'),
    };
    const first = rt.registry.invoke('exec', { command: 'touch made' }, context);
    await waitFor(() => rt.inbox.list().length === 1, 'first request');
    const operator = await gateway!.connect();
    await operator.request('approvals.resolve', { id: rt.inbox.list()[0]!.id, decision: 'deny' });
    expect((await first).isError).toBe(true);
    const second = rt.registry.invoke('exec', { command: 'touch made' }, context);
    await waitFor(() => rt.inbox.list().length === 1, 'second request');
    const answer = await operator.request('approvals.resolve', { id: rt.inbox.list()[0]!.id, decision: 'always' });
    expect(answer.rule).toMatch(/\/touch "made" \(in \S+\)$/);
    expect(answer.wouldMatch).toEqual(['touch made']);
    expect((await second).isError).toBe(false);
    expect(readExecApprovalsFile(gateway!.state.paths.execApprovals).agents.main?.rules).toHaveLength(1);
    expect((await rt.registry.invoke('exec', { command: 'touch made' }, context)).isError).toBe(false);
    expect(rt.inbox.list()).toHaveLength(0);
  });

  it('a pending request survives a gateway restart', async () => {
    const { ask } = await start();
    void ask('touch durable');
    const state = gateway!.state;
    await gateway!.server.stop('restart');
    gateway = await startTestGateway({ state, core: {} });
    const client = await gateway.connect();
    const { approvals } = await client.request('approvals.list', {});
    expect(approvals.map((a) => a.command)).toEqual(['touch durable']);
    await gateway.stop();
    gateway = undefined;
    state.cleanup();
  });
});
