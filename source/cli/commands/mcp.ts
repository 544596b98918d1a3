import { loadConfig, readRawConfig, statePaths, writeRawConfig, type ClawConfig } from '../../config/index.js';
import type { McpServerInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';

const usage = `Usage:
  claw mcp list [--json]
  claw mcp add NAME [--env K=V]… [--cwd DIR] [--trust ask|allow] -- CMD [ARGS…]
  claw mcp add NAME --url URL [--header K=V]… [--trust ask|allow]
  claw mcp remove NAME`;

const NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

interface AddRequest {
  name: string;
  entry: Record<string, unknown>;
}

function fail(text: string, code = 2): number {
  process.stderr.write(`claw mcp: ${text}\n`);
  return code;
}

/** Words after `mcp` from the raw argv: options are ours up to `--`, the server's command after it. */
function wordsAfterMcp(argv: readonly string[]): string[] {
  const index = argv.indexOf('mcp');
  return index === -1 ? [] : argv.slice(index + 1);
}

function parseAdd(words: string[]): AddRequest | string {
  const [name, ...rest] = words;
  if (!name || name.startsWith('-')) return 'add needs a server NAME.';
  if (!NAME_PATTERN.test(name)) return `"${name}" is not a usable name: use letters, digits, ".", "_" or "-".`;
  const split = rest.indexOf('--');
  const options = split === -1 ? rest : rest.slice(0, split);
  const command = split === -1 ? [] : rest.slice(split + 1);
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const entry: Record<string, unknown> = {};
  for (let i = 0; i < options.length; i += 1) {
    const option = options[i]!;
    const value = options[i + 1];
    if (value === undefined) return `${option} needs a value.`;
    i += 1;
    if (option === '--env' || option === '--header') {
      const eq = value.indexOf('=');
      if (eq <= 0) return `${option} expects KEY=VALUE, got "${value}".`;
      (option === '--env' ? env : headers)[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (option === '--url' || option === '--cwd' || option === '--trust') {
      entry[option.slice(2)] = value;
    } else {
      return `unknown option ${option}.`;
    }
  }
  if (entry.url !== undefined) {
    if (command.length > 0 || Object.keys(env).length > 0 || entry.cwd !== undefined) return 'use either --url (HTTP server) or -- CMD ARGS (stdio server), not both.';
    return { name, entry: { ...entry, ...(Object.keys(headers).length ? { headers } : {}) } };
  }
  if (Object.keys(headers).length > 0) return '--header only applies to --url servers.';
  const [executable, ...args] = command;
  if (!executable) return 'add needs the server command after `--` (or --url URL).';
  return { name, entry: { command: executable, ...(args.length ? { args } : {}), ...(Object.keys(env).length ? { env } : {}), ...entry } };
}

function describeTarget(entry: ClawConfig['mcpServers'][string]): string {
  return 'url' in entry ? entry.url : [entry.command, ...entry.args].join(' ');
}

function printTable(servers: McpServerInfo[], connected: boolean): void {
  const rows = servers.map((server) => {
    const state = connected ? server.state : server.state === 'disabled' ? 'disabled' : 'not connected';
    let note = server.lastError ?? '';
    if (server.nextRetryAt !== undefined) note += ` (retry in ${formatDuration(Math.max(0, server.nextRetryAt - Date.now()))})`;
    return [server.name, state, connected ? String(server.toolCount) : '-', server.trust, server.target, note.trim()];
  });
  const header = ['NAME', 'STATE', 'TOOLS', 'TRUST', 'TARGET', 'LAST ERROR'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) {
    process.stdout.write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd()}\n`);
  }
}

async function list(json: boolean): Promise<number> {
  const paths = statePaths();
  const config = loadConfig(paths.config);
  // Loaded only here: the gateway's module graph is heavy and add/remove never need it.
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (findLocalGateway(paths)) {
    const client = await connectLocal(paths);
    try {
      const { servers } = await client.request('mcp.list', {});
      if (json) printJson({ gateway: true, servers });
      else if (servers.length === 0) process.stdout.write('No MCP servers configured. Add one with `claw mcp add NAME -- CMD ARGS…`.\n');
      else printTable(servers, true);
      return 0;
    } finally {
      client.close();
    }
  }
  const servers: McpServerInfo[] = Object.entries(config.mcpServers).map(([name, entry]) => ({
    name,
    transport: 'url' in entry ? 'http' : 'stdio',
    target: describeTarget(entry),
    trust: entry.trust,
    state: entry.enabled ? 'connecting' : 'disabled',
    toolCount: 0,
    tools: [],
  }));
  if (json) {
    printJson({ gateway: false, servers });
    return 0;
  }
  if (servers.length === 0) {
    process.stdout.write('No MCP servers configured. Add one with `claw mcp add NAME -- CMD ARGS…`.\n');
    return 0;
  }
  printTable(servers, false);
  process.stdout.write('\nNo gateway is running, so these servers are not connected. Start it with `claw gateway start`.\n');
  return 0;
}

const restartHint = ' If the gateway is running, `claw gateway restart` applies the change.';

export const run: CommandRun = async ({ args, flags, argv }) => {
  const [action, name] = args;
  const file = statePaths().config;
  switch (action) {
    case undefined:
    case 'list':
      return list(flags.json);
    case 'add': {
      const parsed = parseAdd(wordsAfterMcp(argv).slice(1));
      if (typeof parsed === 'string') return fail(`${parsed}\n${usage}`);
      const raw = readRawConfig(file);
      const servers = (raw.mcpServers ?? {}) as Record<string, unknown>;
      if (servers[parsed.name] !== undefined) return fail(`a server named "${parsed.name}" already exists; remove it first with \`claw mcp remove ${parsed.name}\`.`, 1);
      writeRawConfig(file, { ...raw, mcpServers: { ...servers, [parsed.name]: parsed.entry } });
      process.stdout.write(`Added MCP server "${parsed.name}" to ${file}.${restartHint}\n`);
      return 0;
    }
    case 'remove': {
      if (!name) return fail(`remove needs a server NAME.\n${usage}`);
      const raw = readRawConfig(file);
      const servers = { ...((raw.mcpServers ?? {}) as Record<string, unknown>) };
      if (servers[name] === undefined) {
        const known = Object.keys(servers);
        return fail(`no MCP server named "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ''}.`, 1);
      }
      delete servers[name];
      writeRawConfig(file, { ...raw, mcpServers: servers });
      process.stdout.write(`Removed MCP server "${name}" from ${file}.${restartHint}\n`);
      return 0;
    }
  }
  return fail(`unknown action "${action}".\n${usage}`);
};
