import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawConfig, writeRawConfig } from '../../../source/config/index.js';
import { runCli, runCliSync } from '../../support/cli-process.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';
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
    expect(readRawConfig(state.paths.config).mcpServers).toEqual({
      files: { command: 'npx', args: ['-y', 'some-mcp-server', '--stdio'], env: { ROOT: '/srv' }, trust: 'allow' },
      remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
    });

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
    expect(Object.keys(readRawConfig(state.paths.config).mcpServers as object)).toEqual(['remote']);
    const missing = await runCli(['mcp', 'remove', 'files'], state.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no MCP server named "files" \(configured: remote\)/);
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
    const servers = await waitFor(async () => {
      const listed = await runCli(['mcp', 'list', '--json'], env);
      const parsed = JSON.parse(listed.stdout) as { gateway: boolean; servers: Array<{ name: string; state: string; toolCount: number; lastError?: string }> };
      const local = parsed.servers.find((s) => s.name === 'local');
      const broken = parsed.servers.find((s) => s.name === 'broken');
      return parsed.gateway && local?.state === 'ready' && broken?.lastError ? parsed.servers : undefined;
    }, 'the gateway to connect its MCP servers', 60_000);
    expect(servers.find((s) => s.name === 'local')).toMatchObject({ state: 'ready', toolCount: TEST_TOOL_COUNT });
    expect(servers.find((s) => s.name === 'broken')?.lastError).toMatch(/could not start "claw-no-such-mcp-server"/);

    const table = await runCli(['mcp', 'list'], env);
    expect(table.stdout).toMatch(new RegExp(`local\\s+ready\\s+${TEST_TOOL_COUNT}\\s+allow`));
    expect(table.stdout).toMatch(/broken\s+(error|connecting)\s+0\s+ask\s+claw-no-such-mcp-server\s+could not start/);
  }, 120_000);
});
