import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawConfig, writeRawConfig } from '../../../source/config/index.js';
import { runCli, runCliSync } from '../../support/cli-process.js';
import { stdioServerEntry, tsNodeArgs, waitFor } from '../../support/mcp-servers.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  if (state) runCliSync(['gateway', 'stop'], state.env);
  state?.cleanup();
  state = undefined;
});

describe('claw mcp', () => {
  it('adds, lists (not connected without a gateway) and removes servers in claw.json', async () => {
    state = makeTempState();
    const add = await runCli(['mcp', 'add', 'files', '--env', 'ROOT=/srv', '--trust', 'allow', '--', 'npx', '-y', 'some-mcp-server', '--stdio'], state.env);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('Added MCP server "files"');
    const addHttp = await runCli(['mcp', 'add', 'remote', '--url', 'https://mcp.example.com/mcp', '--header', 'Authorization=Bearer t'], state.env);
    expect(addHttp.code, addHttp.stderr).toBe(0);
    const addSse = await runCli(['mcp', 'add', 'legacy', '--url', 'https://mcp.example.com/sse', '--sse'], state.env);
    expect(addSse.code, addSse.stderr).toBe(0);
    expect(readRawConfig(state.paths.config).mcpServers).toEqual({
      files: { command: 'npx', args: ['-y', 'some-mcp-server', '--stdio'], env: { ROOT: '/srv' }, trust: 'allow' },
      remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
      legacy: { type: 'sse', url: 'https://mcp.example.com/sse' },
    });
    const sseOnStdio = await runCli(['mcp', 'add', 'bad', '--sse', '--', 'node', 'x.js'], state.env);
    expect(sseOnStdio.code).toBe(2);
    expect(sseOnStdio.stderr).toMatch(/--sse only applies to --url servers/);

    const duplicate = await runCli(['mcp', 'add', 'files', '--', 'x'], state.env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already exists; remove it first with `claw mcp remove files`/);
    const noCommand = await runCli(['mcp', 'add', 'empty'], state.env);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toMatch(/needs the server command after `--`/);

    const list = await runCli(['mcp', 'list'], state.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/files\s+not connected\s+-\s+allow\s+npx -y some-mcp-server --stdio/);
    expect(list.stdout).toMatch(/remote\s+not connected\s+-\s+ask\s+https:\/\/mcp\.example\.com\/mcp/);
    expect(list.stdout).toContain('No gateway is running, so these servers are not connected.');

    const remove = await runCli(['mcp', 'remove', 'files'], state.env);
    expect(remove.code).toBe(0);
    expect(Object.keys(readRawConfig(state.paths.config).mcpServers as object)).toEqual(['remote', 'legacy']);
    const missing = await runCli(['mcp', 'remove', 'files'], state.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no MCP server named "files" \(configured: remote, legacy\)/);
  }, 120_000);

  it('lists live state, tool count and last error through the running gateway', async () => {
    state = makeTempState();
    writeRawConfig(state.paths.config, {
      mcpServers: {
        local: stdioServerEntry({ trust: 'allow' }),
        broken: { command: 'claw-no-such-mcp-server' },
      },
    });
    const start = await runCli(['gateway', 'start', '--port', '0'], state.env);
    expect(start.code, start.stderr).toBe(0);
    const env = state.env;
    const servers = await waitFor(
      async () => {
        const listed = await runCli(['mcp', 'list', '--json'], env);
        const parsed = JSON.parse(listed.stdout) as {
          gateway: boolean;
          servers: Array<{ name: string; state: string; toolCount: number; lastError?: string }>;
        };
        const local = parsed.servers.find((s) => s.name === 'local');
        const broken = parsed.servers.find((s) => s.name === 'broken');
        return parsed.gateway && local?.state === 'ready' && broken?.lastError ? parsed.servers : undefined;
      },
      'the gateway to connect its MCP servers',
      60_000,
    );
    expect(servers.find((s) => s.name === 'local')).toMatchObject({ state: 'ready', toolCount: TEST_TOOL_COUNT });
    expect(servers.find((s) => s.name === 'broken')?.lastError).toMatch(/could not start "claw-no-such-mcp-server"/);

    const table = await runCli(['mcp', 'list'], env);
    expect(table.stdout).toMatch(new RegExp(`local\\s+ready\\s+${TEST_TOOL_COUNT}\\s+allow`));
    expect(table.stdout).toMatch(/broken\s+(error|connecting)\s+0\s+ask\s+claw-no-such-mcp-server\s+could not start/);
  }, 120_000);
});

describe('claw mcp help, logs and test', () => {
  it('shows help instead of the server list', async () => {
    state = makeTempState();
    for (const args of [
      ['mcp', '--help'],
      ['mcp', 'help'],
      ['mcp', 'list', '-h'],
    ]) {
      const help = await runCli(args, state.env);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout).toContain('claw mcp logs NAME');
      expect(help.stdout).toContain('claw mcp test NAME');
      expect(help.stdout).not.toContain('No MCP servers configured');
    }
  }, 60_000);

  it('shows why a server failed at start-up in list, all its stderr in logs, and tests servers on its own', async () => {
    state = makeTempState();
    const pidFile = join(state.dir, 'child.pid');
    const server = [process.execPath, ...tsNodeArgs('mcp-stdio-server.ts')].map((word) => `'${word}'`).join(' ');
    writeRawConfig(state.paths.config, {
      mcpServers: {
        local: { type: 'stdio', ...stdioServerEntry({ trust: 'allow' }) },
        dies: { command: process.execPath, args: ['-e', 'console.error("fatal: config missing"); process.exit(3)'] },
        wrapped: { command: '/bin/sh', args: ['-c', `sleep 300 & echo $! > '${pidFile}'; exec ${server}`], trust: 'allow' },
      },
    });
    const start = await runCli(['gateway', 'start', '--port', '0'], state.env);
    expect(start.code, start.stderr).toBe(0);
    const env = state.env;
    await waitFor(
      async () => {
        const listed = JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout) as {
          servers: Array<{ name: string; state: string; lastError?: string }>;
        };
        return listed.servers.find((s) => s.name === 'dies')?.lastError && listed.servers.find((s) => s.name === 'wrapped')?.state === 'ready';
      },
      'dies to fail and wrapped to connect',
      60_000,
    );
    const table = await runCli(['mcp', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/dies\s+(error|connecting)\s+0\s+ask\s+.*the server exited with code 3 while starting: "fatal: config missing"/);

    const logs = await runCli(['mcp', 'logs', 'dies'], env);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toMatch(/--- starting .* ---\n.*fatal: config missing/);
    const unknown = await runCli(['mcp', 'logs', 'nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no MCP server named "nope" \(configured: local, dies, wrapped\)/);

    const ok = await runCli(['mcp', 'test', 'local'], env, 60_000);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/connect\s+\d+ ms \(start and initialize\)/);
    expect(ok.stdout).toMatch(new RegExp(`list\\s+\\d+ ms \\(${TEST_TOOL_COUNT} tools, 1 prompts, 1 resources, 1 templates\\)`));
    expect(ok.stdout).toMatch(/left out: task_only: it only runs as a task/);
    expect(ok.stdout.trim().endsWith('OK')).toBe(true);
    const failed = await runCli(['mcp', 'test', 'dies'], env, 60_000);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAILED: the server exited with code 3 while starting: "fatal: config missing"');
    expect(failed.stdout).toContain('Last stderr lines:\n  fatal: config missing');

    // A restart ends the wrapper's background child with the rest of the server's process group.
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(child)).toBe(true);
    const restart = await runCli(['gateway', 'restart'], env, 60_000);
    expect(restart.code, restart.stderr).toBe(0);
    await waitFor(() => !alive(child), 'the old background child to end');
  }, 180_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
