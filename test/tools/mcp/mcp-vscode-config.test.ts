import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, validateConfig } from '../../../source/config/index.js';
import { ToolRegistry, type ToolContext } from '../../../source/tools/index.js';
import { ApprovalInbox } from '../../../source/tools/approvals/inbox.js';
import { McpManager, saveMcpInput } from '../../../source/tools/mcp/index.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';
import { runCli } from '../../support/cli-process.js';
import { makeTempState } from '../../support/temp-state.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** VS Code's own reference syntax, kept out of string literals the linter would take for a forgotten template. */
const TAG_INPUT = `${'$'}{input:tag}`;

/** What VS Code's mcp.json holds, pasted as the value of mcpServers. */
function vscodeBlock(envFile: string): Record<string, unknown> {
  const server = stdioServerEntry({ env: { MCP_TEST_TAG: TAG_INPUT } }) as { command: string; args: string[] };
  return {
    inputs: [{ type: 'promptString', id: 'tag', description: 'The tag', password: true }],
    servers: { local: { type: 'stdio', command: server.command, args: server.args, env: { MCP_TEST_TAG: TAG_INPUT }, envFile, dev: { watch: 'src/**' } } },
  };
}

describe("VS Code's mcp.json pasted into mcpServers", () => {
  it('loads: servers become entries, an input is asked once and kept as a secret, envFile is read under env', async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const envFile = join(state.dir, 'server.env');
    writeFileSync(envFile, '# for the server\nMCP_TEST_TAG=from-file\nOTHER="quoted"\n');
    const config = configSchema.parse({ mcpServers: vscodeBlock(envFile) });
    const entry = config.mcpServers.local!;
    expect(entry).toMatchObject({ type: 'stdio', envFile, inputs: [{ id: 'tag', password: true }] });
    expect(entry).not.toHaveProperty('dev');

    const inputsFile = join(state.dir, 'credentials', 'mcp-inputs.json');
    const registry = new ToolRegistry();
    const manager = new McpManager({ local: { ...entry, trust: 'allow' } }, { registry, backoff: { initialMs: 100, maxMs: 300 }, inputsFile });
    const inbox = new ApprovalInbox({ file: join(state.dir, 'approvals.json') });
    cleanups.push(
      () => inbox.close(),
      () => manager.close(),
    );
    manager.start();
    const status = () => manager.status().find((server) => server.name === 'local')!;
    // No value yet: the server says what to run instead of starting with a literal "${input:tag}".
    await waitFor(() => status().state === 'error' && status().lastError?.includes('needs "tag"'), 'the missing input');
    expect(status().lastError).toContain('claw mcp inputs local');
    saveMcpInput(inputsFile, 'tag', 'from-input');
    await waitFor(() => status().state === 'ready', 'local ready after the input was given');
    const context: ToolContext = {
      agentId: 'main',
      sessionKey: 'agent:main:main',
      sessionType: 'main',
      workspaceDir: state.dir,
      signal: new AbortController().signal,
      onUpdate: () => {},
      approvals: inbox.gate('main', 'agent:main:main'),
    };
    // env wins over the envFile's line for the same key.
    expect((await registry.invoke('mcp__local__whoami', {}, context)).content).toContain('"tag":"from-input"');
  });

  it('an unknown shape is refused with the shapes claw takes, and the rest of claw.json still loads', async () => {
    const config = validateConfig(
      { agents: { defaults: { model: 'fake/m' } }, mcpServers: { odd: { program: 'x' }, good: stdioServerEntry({ trust: 'allow' }) } },
      'claw.json',
    );
    expect(config.agents.defaults.model).toBe('fake/m');
    expect(config.mcpServers.good?.refused).toBeUndefined();
    expect(config.mcpServers.odd?.refused).toMatch(
      /an MCP server is \{"command", "args", "env", "cwd"\} \(stdio\) or \{"url", "headers"\}.*VS Code's mcp\.json block/,
    );
    const manager = new McpManager(config.mcpServers, { registry: new ToolRegistry(), backoff: { initialMs: 100, maxMs: 300 } });
    cleanups.push(() => manager.close());
    manager.start();
    const status = (name: string) => manager.status().find((server) => server.name === name)!;
    await waitFor(() => status('good').state === 'ready', 'the good server ready');
    expect(status('odd')).toMatchObject({ state: 'error', target: '(refused)' });
    expect(status('odd').lastError).toContain('its entry in claw.json is not an MCP server claw can start (an MCP server is {"command"');
  });

  it('claw config set still refuses to write an entry that is not a server', async () => {
    const state = makeTempState();
    cleanups.push(() => state.cleanup());
    const result = await runCli(['config', 'set', 'mcpServers.odd', '{"program":"x"}'], state.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcpServers.odd: an MCP server is {"command", "args", "env", "cwd"} (stdio)');
    expect(result.stderr).toContain('Nothing was written.');
  });
});
