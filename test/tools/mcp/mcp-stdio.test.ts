import { join } from 'node:path';
import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { ToolRegistry, type ToolContext } from '../../../source/tools/index.js';
import { ApprovalInbox } from '../../../source/tools/approvals/inbox.js';
import { McpManager, type McpServerStatus } from '../../../source/tools/mcp/index.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(servers: Record<string, unknown>) {
  const state: TempState = makeTempState();
  const config = configSchema.parse({ mcpServers: servers });
  const registry = new ToolRegistry();
  const manager = new McpManager(config.mcpServers, { registry, backoff: { initialMs: 100, maxMs: 400 } });
  const inbox = new ApprovalInbox({ file: join(state.dir, 'approvals.json') });
  const controller = new AbortController();
  cleanups.push(
    () => state.cleanup(),
    () => inbox.close(),
    async () => {
      controller.abort();
      await manager.close();
    },
  );
  const context: ToolContext = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: state.dir,
    signal: controller.signal,
    onUpdate: () => {},
    approvals: inbox.gate('main', 'agent:main:main'),
  };
  manager.start();
  const status = (name: string): McpServerStatus => manager.status().find((s) => s.name === name)!;
  const ready = (name: string) => waitFor(() => status(name).state === 'ready', `${name} ready`);
  return { state, registry, manager, inbox, context, status, ready };
}

async function pidOf(env: ReturnType<typeof setup>, tool: string): Promise<number> {
  const result = await env.registry.invoke(tool, {}, env.context);
  return JSON.parse(/\{.*\}/.exec(result.content)![0]).pid as number;
}

describe('MCP over stdio', { timeout: 90_000 }, () => {
  it('lists the server tools, registers them as mcp__<server>__<tool> and calls them', async () => {
    const env = setup({ local: stdioServerEntry({ trust: 'allow', env: { MCP_TEST_TAG: 'from-config' } }) });
    await env.ready('local');
    const status = env.status('local');
    expect(status).toMatchObject({ transport: 'stdio', trust: 'allow', toolCount: TEST_TOOL_COUNT });
    expect(status.tools).toContain('mcp__local__echo');
    const echo = env.registry.get('mcp__local__echo')!;
    expect(echo.group).toBe('mcp');
    expect(echo.description).toBe('[MCP server local] Echo the text back.');
    expect(echo.parameters.properties).toHaveProperty('text');

    const result = await env.registry.invoke('mcp__local__echo', { text: 'hi' }, env.context);
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(
      /^<untrusted_content nonce="([0-9a-f]{16})" source="mcp" server="local" tool="echo">\necho: hi\n<\/untrusted_content nonce="\1">$/,
    );
    expect((await env.registry.invoke('mcp__local__add', { a: 2, b: 3 }, env.context)).content).toContain('\n5\n');
    expect((await env.registry.invoke('mcp__local__whoami', {}, env.context)).content).toContain('"tag":"from-config"');

    const failed = await env.registry.invoke('mcp__local__fail', {}, env.context);
    expect(failed.isError).toBe(true);
    expect(failed.content).toContain('it went wrong on purpose');
    const bad = await env.registry.invoke('mcp__local__add', { a: 'two' }, env.context);
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/Invalid arguments for mcp__local__add/);
  });

  it('turns a server that dies mid-call into an error result and reconnects it', async () => {
    const env = setup({ local: stdioServerEntry({ trust: 'allow' }) });
    await env.ready('local');
    const firstPid = await pidOf(env, 'mcp__local__whoami');
    const crashed = await env.registry.invoke('mcp__local__crash', {}, env.context);
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toMatch(/MCP server "local" went away during the call \(its last stderr line: "test server: crashing on request"\)/);
    await waitFor(() => env.status('local').state !== 'ready' || env.status('local').lastError, 'local noticed the crash');
    const whileDown = env.status('local');
    expect(whileDown.lastError).toMatch(/connection closed/);
    await env.ready('local');
    expect(env.status('local').toolCount).toBe(TEST_TOOL_COUNT);
    const secondPid = await pidOf(env, 'mcp__local__whoami');
    expect(secondPid).not.toBe(firstPid);
  });

  it('refreshes the registry on notifications/tools/list_changed', async () => {
    const env = setup({ local: stdioServerEntry({ trust: 'allow' }) });
    await env.ready('local');
    await env.registry.invoke('mcp__local__add_tool', { name: 'extra.tool' }, env.context);
    await waitFor(() => env.registry.get('mcp__local__extra_tool'), 'the added tool');
    expect(env.status('local').toolCount).toBe(TEST_TOOL_COUNT + 1);
    const ran = await env.registry.invoke('mcp__local__extra_tool', {}, env.context);
    expect(ran.content).toContain('extra.tool ran');
    await env.registry.invoke('mcp__local__remove_tool', { name: 'extra.tool' }, env.context);
    await waitFor(() => !env.registry.get('mcp__local__extra_tool'), 'the tool to go');
    expect(env.status('local').toolCount).toBe(TEST_TOOL_COUNT);
  });

  it('abandons a call after the per-server timeout and keeps the server usable', async () => {
    const env = setup({ local: stdioServerEntry({ trust: 'allow', timeoutMs: 300 }) });
    await env.ready('local');
    const slow = await env.registry.invoke('mcp__local__slow', { ms: 30_000 }, env.context);
    expect(slow.isError).toBe(true);
    expect(slow.content).toMatch(/did not answer within 300 ms \(mcpServers\.local\.timeoutMs;/);
    expect((await env.registry.invoke('mcp__local__echo', { text: 'still here' }, env.context)).content).toContain('echo: still here');
  });

  it('with trust "ask" sends each call to the approval inbox; deny never reaches the server', async () => {
    const env = setup({ local: stdioServerEntry() });
    await env.ready('local');
    expect(env.registry.get('mcp__local__crash')!.risk).toBe('high');
    const answers: Array<'deny' | 'once' | 'session'> = ['deny', 'once', 'session'];
    const seen: string[] = [];
    env.inbox.on((event, record) => {
      if (event !== 'requested') return;
      seen.push(record.command);
      expect(record.kind).toBe('mcp');
      setImmediate(() => env.inbox.resolve(record.id, answers.shift()!, 'test-operator'));
    });
    const denied = await env.registry.invoke('mcp__local__crash', {}, env.context);
    expect(denied.isError).toBe(true);
    expect(denied.content).toMatch(/was not approved \(denied\)/);
    expect(env.status('local').state).toBe('ready');

    expect((await env.registry.invoke('mcp__local__echo', { text: 'a' }, env.context)).content).toContain('echo: a');
    expect((await env.registry.invoke('mcp__local__echo', { text: 'b' }, env.context)).content).toContain('echo: b');
    expect((await env.registry.invoke('mcp__local__echo', { text: 'c' }, env.context)).content).toContain('echo: c');
    expect(seen).toEqual(['local crash {}', 'local echo {"text":"a"}', 'local echo {"text":"b"}']);
  });

  it('reports a command that cannot start, and leaves disabled servers alone', async () => {
    const env = setup({
      broken: { command: 'claw-no-such-mcp-server', trust: 'allow' },
      off: stdioServerEntry({ enabled: false }),
    });
    await waitFor(() => env.status('broken').lastError, 'broken to fail');
    expect(env.status('broken')).toMatchObject({ toolCount: 0 });
    expect(env.status('broken').lastError).toMatch(/could not start "claw-no-such-mcp-server" \(not found\)/);
    expect(env.status('off')).toMatchObject({ state: 'disabled', toolCount: 0 });
  });
});
