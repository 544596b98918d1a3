import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { mcpTestEnv } from '../../support/mcp-env.js';
import { startHttpMcpServer, stdioServerEntry, tsNodeArgs, waitFor } from '../../support/mcp-servers.js';
import { makeTempState } from '../../support/temp-state.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A shell wrapper that leaves a background child (its pid in `pidFile`), then execs the test server. */
function wrappedServer(pidFile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const server = [process.execPath, ...tsNodeArgs('mcp-stdio-server.ts')].map((word) => `'${word}'`).join(' ');
  return { command: '/bin/sh', args: ['-c', `sleep 300 & echo $! > '${pidFile}'; exec ${server}`], trust: 'allow', ...extra };
}

describe('MCP defects from real servers', { timeout: 90_000 }, () => {
  it('quotes a last stderr line written without a newline', async () => {
    const env = mcpTestEnv({ terse: { command: process.execPath, args: ['-e', 'process.stderr.write("fatal: no DATABASE_URL"); process.exit(1)'] } }, cleanups);
    await waitFor(() => env.status('terse').lastError, 'terse to fail');
    expect(env.status('terse').lastError).toBe('the server exited with code 1 while starting: "fatal: no DATABASE_URL" (see `claw mcp logs terse`)');
  });

  it('keeps the stderr of a server that dies at start-up and explains the failure with it', async () => {
    const env = mcpTestEnv(
      { dies: { command: process.execPath, args: ['-e', 'console.error("loading config"); console.error("fatal: config missing"); process.exit(3)'] } },
      cleanups,
    );
    await waitFor(() => env.status('dies').lastError, 'dies to fail');
    const status = env.status('dies');
    expect(status.lastError).toBe('the server exited with code 3 while starting: "fatal: config missing" (see `claw mcp logs dies`)');
    expect(status.lastStderr).toBe('fatal: config missing');
    const lines = env.manager.logs('dies');
    expect(lines[0]).toMatchObject({ marker: true, text: expect.stringMatching(/^starting /) });
    expect(lines.slice(1, 3).map((line) => line.text)).toEqual(['loading config', 'fatal: config missing']);
    // Each retry starts the process again, marked, and the log stays bounded.
    await waitFor(() => env.manager.logs('dies').filter((line) => line.marker).length >= 2, 'a retry');
  });

  it("ends a wrapper script's background children on stop and when the server dies", async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const pidFile = join(state.dir, 'child.pid');
    const env = mcpTestEnv({ wrapped: wrappedServer(pidFile) }, cleanups, { state });
    await env.ready('wrapped');
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(child)).toBe(true);
    await env.stop();
    expect(alive(child)).toBe(false);

    const crashPid = join(state.dir, 'crash.pid');
    const crashing = mcpTestEnv({ wrapped: wrappedServer(crashPid) }, cleanups, { state });
    await crashing.ready('wrapped');
    const orphan = Number(readFileSync(crashPid, 'utf8'));
    const crashed = await crashing.registry.invoke('mcp__wrapped__crash', {}, crashing.context);
    expect(crashed.isError).toBe(true);
    await waitFor(() => !alive(orphan), 'the background child of the crashed server to end');
    // The reconnect starts a fresh group with a fresh child.
    await waitFor(() => crashing.status('wrapped').state === 'ready' && Number(readFileSync(crashPid, 'utf8')) !== orphan, 'a fresh start');
  });

  it('on a config change connects new servers, restarts changed ones and ends removed ones with their process group', async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const pidFile = join(state.dir, 'child.pid');
    const env = mcpTestEnv({ wrapped: wrappedServer(pidFile) }, cleanups, { state });
    await env.ready('wrapped');
    const child = Number(readFileSync(pidFile, 'utf8'));
    const parse = (servers: Record<string, unknown>) => configSchema.parse({ mcpServers: servers }).mcpServers;

    await env.manager.update(parse({ wrapped: wrappedServer(pidFile), local: stdioServerEntry({ trust: 'allow' }) }));
    await env.ready('local');
    expect(Number(readFileSync(pidFile, 'utf8'))).toBe(child);
    expect(env.registry.get('mcp__local__echo')).toBeDefined();

    await env.manager.update(parse({ wrapped: wrappedServer(pidFile, { timeoutMs: 5000 }), local: stdioServerEntry({ trust: 'allow' }) }));
    expect(alive(child)).toBe(false);
    await env.ready('wrapped');
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(child);

    const second = Number(readFileSync(pidFile, 'utf8'));
    await env.manager.update(parse({ local: stdioServerEntry({ trust: 'allow' }) }));
    expect(alive(second)).toBe(false);
    expect(env.manager.status().map((s) => s.name)).toEqual(['local']);
    expect(env.registry.list().filter((tool) => tool.name.startsWith('mcp__wrapped__'))).toEqual([]);
    expect(env.registry.get('mcp_resource')).toBeDefined();
    await env.manager.update({});
    expect(env.registry.list()).toEqual([]);
  });

  it('survives a server that prints a banner that is not JSON-RPC on stdout', async () => {
    const server = [process.execPath, ...tsNodeArgs('mcp-stdio-server.ts')].map((word) => `'${word}'`).join(' ');
    const env = mcpTestEnv(
      { chatty: { command: '/bin/sh', args: ['-c', `echo 'Welcome to the server!'; echo '{"not":"rpc"}'; exec ${server}`], trust: 'allow' } },
      cleanups,
    );
    await env.ready('chatty');
    expect((await env.registry.invoke('mcp__chatty__echo', { text: 'still fine' }, env.context)).content).toContain('echo: still fine');
  });

  it('leaves task-only tools out and says so', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups);
    await env.ready('local');
    expect(env.registry.get('mcp__local__task_only')).toBeUndefined();
    expect(env.status('local').skippedTools).toEqual([
      { name: 'task_only', reason: expect.stringMatching(/only runs as a task \(execution.taskSupport "required"\)/) },
    ]);
  });

  it('remembers "always" for an MCP tool in mcp-approvals.json, across a restart, and says what was stored', async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const first = mcpTestEnv({ local: stdioServerEntry() }, cleanups, { state });
    await first.ready('local');
    let effect: { rule?: string } = {};
    first.inbox.on((event, record) => {
      if (event === 'requested')
        setImmediate(() => {
          effect = first.inbox.resolve(record.id, 'always', 'operator');
        });
    });
    expect((await first.registry.invoke('mcp__local__echo', { text: 'one' }, first.context)).content).toContain('echo: one');
    expect(effect.rule).toBe(
      `MCP tool "echo" of server "local" runs without asking for agent main (stored in ${first.approvalsFile}; delete the entry to be asked again)`,
    );
    expect(JSON.parse(readFileSync(first.approvalsFile, 'utf8'))).toMatchObject({ version: 1, agents: { main: [{ server: 'local', tool: 'echo' }] } });
    await first.stop();

    const second = mcpTestEnv({ local: stdioServerEntry() }, cleanups, { state });
    await second.ready('local');
    const asked: string[] = [];
    second.inbox.on((event, record) => {
      if (event !== 'requested') return;
      asked.push(record.command);
      setImmediate(() => second.inbox.resolve(record.id, 'deny', 'operator'));
    });
    expect((await second.registry.invoke('mcp__local__echo', { text: 'two' }, second.context)).content).toContain('echo: two');
    expect((await second.registry.invoke('mcp__local__add', { a: 1, b: 2 }, second.context)).isError).toBe(true);
    expect(asked).toEqual(['local add {"a":1,"b":2}']);
  });

  it('accepts the mcpServers block Claude Code, Claude Desktop, Cursor and VS Code write', () => {
    const pasted = {
      files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: {} },
      desktop: { command: 'uvx', args: ['mcp-server-git'] },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
      cursor: { url: 'https://mcp.example.com/mcp' },
      legacy: { type: 'sse', url: 'https://mcp.example.com/sse' },
    };
    const parsed = configSchema.parse({ mcpServers: pasted }).mcpServers;
    expect(Object.fromEntries(Object.entries(parsed).map(([name, entry]) => [name, entry.type]))).toEqual({
      files: 'stdio',
      desktop: 'stdio',
      remote: 'http',
      cursor: 'http',
      legacy: 'sse',
    });
    // A shape claw cannot start is refused with why; it does not take the rest of claw.json down.
    const bad = configSchema.parse({ mcpServers: { bad: { type: 'sse', command: 'x' } } }).mcpServers.bad;
    expect(bad).toMatchObject({ enabled: false, refused: expect.stringContaining('an MCP server is {"command"') });
  });

  it('does not ask for approval while the server is disconnected, and says it is reconnecting', async () => {
    const remote = await startHttpMcpServer();
    cleanups.push(() => remote.kill());
    const env = mcpTestEnv({ web: { url: remote.url } }, cleanups);
    await env.ready('web');
    await remote.kill();
    // The dropped event stream makes the client probe the server and find it gone.
    await waitFor(() => env.status('web').state === 'error', 'web to notice');
    let asked = 0;
    env.inbox.on((event) => {
      if (event === 'requested') asked += 1;
    });
    const down = await env.registry.invoke('mcp__web__echo', { text: 'x' }, env.context);
    expect(down.isError).toBe(true);
    expect(down.content).toMatch(
      /^MCP server "web" is not connected \(reconnecting after an error: .*\)\. claw reconnects it automatically; try again shortly\.$/,
    );
    expect(asked).toBe(0);
  });

  it('clears LAST ERROR once the server is ready again', async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const flag = join(state.dir, 'healthy');
    // Fails until the flag file exists, then runs the real server.
    const script = `if [ ! -f '${flag}' ]; then echo 'not yet' >&2; exit 1; fi; exec ${[process.execPath, ...tsNodeArgs('mcp-stdio-server.ts')].map((w) => `'${w}'`).join(' ')}`;
    const env = mcpTestEnv({ flaky: { command: '/bin/sh', args: ['-c', script], trust: 'allow' } }, cleanups, { state });
    await waitFor(() => env.status('flaky').lastError, 'the first failure');
    expect(env.status('flaky').lastError).toMatch(/exited with code 1 while starting: "not yet"/);
    writeFileSync(flag, '');
    await env.ready('flaky');
    expect(env.status('flaky').lastError).toBeUndefined();
    expect(env.status('flaky').lastErrorAt).toBeUndefined();
  });
});
