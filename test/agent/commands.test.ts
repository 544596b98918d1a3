import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';
import { collectRun } from './agent-gateway.js';

const KEY = 'agent:main:main';
let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  cleanup?.();
  gateway = undefined;
  llm = undefined;
  cleanup = undefined;
});

/** The daemon's real services behind commands.run, with providers that see only the config. */
async function startCommandGateway(config: Record<string, unknown>): Promise<TestGateway> {
  const state = makeTempState();
  cleanup = state.cleanup;
  return startTestGateway({ state, config, core: {} });
}

function fakeConfig(server: FakeLlmServer, apiKeyEnv?: string): Record<string, unknown> {
  return {
    models: {
      providers: { fake: { api: 'openai', baseUrl: server.baseUrl, ...(apiKeyEnv ? { apiKeyEnv } : {}), models: { m: { contextWindow: 32_000 }, other: {} } } },
    },
    agents: { defaults: { model: 'fake/m' } },
  };
}

describe('commands', () => {
  it('lists the commands and answers /help, /status, /model, /think, /new, /reset, /abort', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm));
    const client = await gateway.connect();
    const { commands } = await client.request('commands.list', {});
    expect(commands.map((c) => c.name).slice(0, 15)).toEqual([
      'status',
      'model',
      'think',
      'mode',
      'new',
      'reset',
      'abort',
      'retry',
      'context',
      'compact',
      'cron',
      'heartbeat',
      'sh',
      'help',
      'skills',
    ]);
    // The bundled user-invocable skills follow the built-ins.
    expect(commands.map((c) => c.name)).toContain('claw-config');
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/help' })).reply).toContain('/think off|minimal|low|medium|high');

    const status = await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    expect(status.reply).toContain('model    fake/m via fake');
    expect(status.reply).toContain('0 / 32k (0%)');
    expect(status.data).toMatchObject({ model: 'fake/m', provider: 'fake', window: 32_000, queued: 0, running: false });

    expect((await client.request('commands.run', { sessionKey: KEY, text: '/model fake/other' })).reply).toContain('fake/other');
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/status' })).data).toMatchObject({ model: 'fake/other' });
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/model nowhere/x' })).rejects.toMatchObject({ code: 'bad_request' });

    expect((await client.request('commands.run', { sessionKey: KEY, text: '/think HIGH' })).data).toEqual({ thinking: 'high' });
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/think hard' })).rejects.toMatchObject({ code: 'bad_request' });

    const before = (await client.request('commands.run', { sessionKey: KEY, text: '/status' })).data as { sessionId: string };
    const reset = await client.request('commands.run', { sessionKey: KEY, text: '/reset' });
    expect(reset.reply).not.toContain(before.sessionId);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/new fake/m' })).reply).toContain('with fake/m');
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/abort' })).reply).toBe('nothing is running');
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/frobnicate' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('gives clients the argument values to pick from, and refuses unknown models everywhere with the known ones', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm));
    const client = await gateway.connect();
    const { commands } = await client.request('commands.list', {});
    const model = commands.find((c) => c.name === 'model')!;
    expect(model.arguments?.[0]?.values?.map((v) => v.value)).toEqual(expect.arrayContaining(['default', 'fake/m', 'fake/other']));
    expect(commands.find((c) => c.name === 'think')!.arguments?.[0]?.values?.map((v) => v.value)).toEqual(['off', 'minimal', 'low', 'medium', 'high']);

    await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/model nope/x' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/Known models: .*fake\/m/),
    });
    await expect(client.request('sessions.patch', { key: KEY, patch: { model: 'nope/x' } })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('fake/other'),
    });
    await expect(client.request('sessions.new', { key: KEY, model: 'nope/x' })).rejects.toMatchObject({ code: 'bad_request' });
    expect((await client.request('sessions.patch', { key: KEY, patch: { model: 'fake/other' } })).session.model).toBe('fake/other');
  });

  it('/retry answers a message that failed for lack of a key, without repeating it', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm, 'FAKE_RETRY_KEY'));
    const client = await gateway.connect();
    const first = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'are you there?' });
    const failed = await first.ended();
    expect(failed.state === 'error' ? failed.message : '').toContain('FAKE_RETRY_KEY');
    const status = await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    expect(status.reply).toContain('FAKE_RETRY_KEY');

    writeFileSync(join(gateway.state.paths.credentials, 'fake.json'), JSON.stringify({ apiKey: 'k' }), { mode: 0o600 });
    llm.reply({ text: 'Yes, here now.' });
    const second = collectRun(await gateway.connect());
    await client.request('commands.run', { sessionKey: KEY, text: '/retry' });
    expect(await second.ended()).toMatchObject({ state: 'final', text: 'Yes, here now.' });
    const messages = (llm.requests[0]?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    expect(messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('are you there?'))).toHaveLength(1);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/status' })).reply).toContain('error    none');
  });
});

describe("/sh (the TUI's !command)", () => {
  it("runs through exec as the owner (sandbox, approvals), shows the output, and the next turn sees it, marked as the owner's", async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm));
    const workspace = gateway.state.paths.workspace('main');
    writeFileSync(join(workspace, 'notes-for-shell.txt'), 'hello');
    const client = await gateway.connect();
    const listed = await client.request('commands.run', { sessionKey: KEY, text: '/sh ls' });
    expect(listed.reply.startsWith('$ ls\n')).toBe(true);
    expect(listed.reply).toContain('notes-for-shell.txt');
    expect(listed.data).toEqual({ exitCode: 0, isError: false });

    // What is not read-only waits for the owner's approval, as the agent's own exec calls do.
    const touching = client.request('commands.run', { sessionKey: KEY, text: '/sh touch made-by-shell' });
    let approval = gateway.core.tools.inbox.list()[0];
    for (let i = 0; i < 200 && !approval; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      approval = gateway.core.tools.inbox.list()[0];
    }
    expect(approval).toMatchObject({ kind: 'exec', command: 'touch made-by-shell' });
    gateway.core.tools.inbox.resolve(approval!.id, 'once', 'test');
    expect((await touching).reply).toBe('$ touch made-by-shell\n(no output)');

    llm.reply({ text: 'I see the notes file.' });
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'what did I just list?' });
    expect(await run.ended()).toMatchObject({ state: 'final', text: 'I see the notes file.' });
    const messages = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(messages).toContain('[The owner ran a shell command in the workspace; its output is for you to use.]\\n$ ls');
    expect(messages).toContain('notes-for-shell.txt');
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/sh' })).rejects.toMatchObject({ code: 'bad_request' });
  }, 60_000);
});

describe('/mode (Shift+Tab in the TUI)', () => {
  it('plan offers no tool with side effects; auto-edit runs sandboxed commands unasked; ask is the policy again', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm));
    const client = await gateway.connect();
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/mode' })).data).toEqual({ mode: 'ask' });

    expect((await client.request('commands.run', { sessionKey: KEY, text: '/mode plan' })).reply).toContain('mode set to plan');
    expect((await client.request('sessions.list', {})).sessions.find((s) => s.key === KEY)?.approvalMode).toBe('plan');
    llm.reply({ text: 'Here is the plan.' });
    let run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'plan the refactor' });
    await run.ended();
    const offered = (llm.requests.at(-1)!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    for (const name of ['exec', 'write', 'edit', 'apply_patch', 'process']) expect(offered, name).not.toContain(name);
    expect(offered).toContain('read');

    await client.request('commands.run', { sessionKey: KEY, text: '/mode auto-edit' });
    llm.reply({ toolCalls: [{ id: 't1', name: 'exec', arguments: { command: 'touch made-in-auto-edit' } }] }, { text: 'done' });
    run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'make the file' });
    expect(await run.ended()).toMatchObject({ state: 'final', text: 'done' });
    expect(gateway.core.tools.inbox.list('all')).toEqual([]);
    expect(existsSync(join(gateway.state.paths.workspace('main'), 'made-in-auto-edit'))).toBe(true);

    await client.request('commands.run', { sessionKey: KEY, text: '/mode ask' });
    expect((await client.request('sessions.list', {})).sessions.find((s) => s.key === KEY)?.approvalMode).toBeUndefined();
    // Back in ask, the same kind of command waits for the owner again.
    llm.reply({ toolCalls: [{ id: 't2', name: 'exec', arguments: { command: 'touch made-in-ask' } }] }, { text: 'asked' });
    run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'make another' });
    let pending = gateway.core.tools.inbox.list()[0];
    for (let i = 0; i < 200 && !pending; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending = gateway.core.tools.inbox.list()[0];
    }
    expect(pending).toMatchObject({ kind: 'exec', command: 'touch made-in-ask' });
    gateway.core.tools.inbox.resolve(pending!.id, 'deny', 'test');
    await run.ended();
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/mode yolo' })).rejects.toMatchObject({ code: 'bad_request' });
  }, 60_000);
});
