import { loadConfig, readRawConfig, statePaths, writeRawConfig, type ClawConfig } from '../../config/index.js';
import type { McpServerInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { join } from 'node:path';
import { formatDuration, printJson } from '../format.js';

const usage = `Usage:
  claw mcp list [--json]          servers, state, tools and last error (live when the gateway runs)
  claw mcp add NAME [--env K=V]… [--cwd DIR] [--trust ask|allow] -- CMD [ARGS…]
  claw mcp add NAME --url URL [--sse] [--header K=V]… [--trust ask|allow]
  claw mcp remove NAME
  claw mcp logs NAME [--json]     the server's last stderr lines (from the running gateway)
  claw mcp test NAME [--json]     connect once, list what it offers, report timings
  claw mcp login NAME             log in to a remote server (OAuth): prints the URL to open; the gateway catches the redirect
  claw mcp logout NAME            forget its tokens (credentials/mcp/NAME.json)
  claw mcp inputs NAME            give the values its \${input:ID} settings stand for (VS Code inputs; kept in credentials/)

Servers live in claw.json under "mcpServers", in the shape Claude Code, Claude
Desktop, Cursor and VS Code use ("type": "stdio" | "http" | "sse" optional).`;

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
    if (option === '--sse') {
      entry.type = 'sse';
      continue;
    }
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
    if (command.length > 0 || Object.keys(env).length > 0 || entry.cwd !== undefined)
      return 'use either --url (HTTP server) or -- CMD ARGS (stdio server), not both.';
    return { name, entry: { ...entry, ...(Object.keys(headers).length ? { headers } : {}) } };
  }
  if (Object.keys(headers).length > 0) return '--header only applies to --url servers.';
  if (entry.type === 'sse') return '--sse only applies to --url servers.';
  const [executable, ...args] = command;
  if (!executable) return 'add needs the server command after `--` (or --url URL).';
  return { name, entry: { command: executable, ...(args.length ? { args } : {}), ...(Object.keys(env).length ? { env } : {}), ...entry } };
}

function describeTarget(entry: ClawConfig['mcpServers'][string]): string {
  return 'url' in entry ? entry.url : [entry.command, ...entry.args].join(' ');
}

function lastErrorNote(server: McpServerInfo): string {
  if (server.state === 'needs-login') return `needs login: run \`claw mcp login ${server.name}\``;
  let note = server.state === 'error' || server.state === 'connecting' ? (server.lastError ?? '') : '';
  // A start-up failure already quotes the line; otherwise the last stderr line is often the real cause.
  if (note && server.lastStderr && !note.includes(server.lastStderr)) note += ` [stderr: ${server.lastStderr}]`;
  if (server.state === 'error' && server.nextRetryAt !== undefined) note += ` (retry in ${formatDuration(Math.max(0, server.nextRetryAt - Date.now()))})`;
  return note.trim();
}

function printTable(servers: McpServerInfo[], connected: boolean): void {
  const rows = servers.map((server) => {
    const state = connected ? server.state.replace('-', ' ') : server.state === 'disabled' ? 'disabled' : 'not connected';
    return [server.name, state, connected ? String(server.toolCount) : '-', server.trust, server.target, connected ? lastErrorNote(server) : ''];
  });
  const header = ['NAME', 'STATE', 'TOOLS', 'TRUST', 'TARGET', 'LAST ERROR'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) {
    process.stdout.write(
      `${row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
  for (const server of servers) {
    for (const tool of server.skippedTools ?? []) process.stdout.write(`\n${server.name}: tool "${tool.name}" is not offered to the model: ${tool.reason}.`);
    for (const warning of server.warnings ?? []) process.stdout.write(`\n${server.name}: ${warning}.`);
  }
  if (servers.some((server) => server.skippedTools?.length || server.warnings?.length)) process.stdout.write('\n');
}

const noServers = 'No MCP servers configured. Add one with `claw mcp add NAME -- CMD ARGS…`.\n';

async function withGateway<T>(work: (client: import('../../client/index.js').GatewayClient) => Promise<T>): Promise<T | undefined> {
  const paths = statePaths();
  // Loaded only here: add and remove never need a connection.
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return undefined;
  const client = await connectLocal(paths);
  try {
    return await work(client);
  } finally {
    client.close();
  }
}

async function list(json: boolean): Promise<number> {
  const config = loadConfig(statePaths().config);
  const live = await withGateway(async (client) => (await client.request('mcp.list', {})).servers);
  if (live) {
    if (json) printJson({ gateway: true, servers: live });
    else if (live.length === 0) process.stdout.write(noServers);
    else printTable(live, true);
    return 0;
  }
  const servers: McpServerInfo[] = Object.entries(config.mcpServers).map(([name, entry]) => ({
    name,
    transport: entry.type,
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
    process.stdout.write(noServers);
    return 0;
  }
  printTable(servers, false);
  process.stdout.write(
    '\nNo gateway is running, so these servers are not connected. Start it with `claw gateway start`, or try one with `claw mcp test NAME`.\n',
  );
  return 0;
}

function knownServer(config: ClawConfig, name: string | undefined, action: string): string | number {
  if (!name) return fail(`${action} needs a server NAME.\n${usage}`);
  if (config.mcpServers[name] !== undefined) return name;
  const known = Object.keys(config.mcpServers);
  return fail(`no MCP server named "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ''}.`, 1);
}

async function logs(name: string | undefined, json: boolean): Promise<number> {
  const config = loadConfig(statePaths().config);
  const server = knownServer(config, name, 'logs');
  if (typeof server === 'number') return server;
  const result = await withGateway((client) => client.request('mcp.logs', { server }));
  if (!result)
    return fail(
      `no gateway is running, so "${server}" has no log. Start it with \`claw gateway start\`, or run \`claw mcp test ${server}\` to start the server once and see its stderr.`,
      1,
    );
  if (json) {
    printJson(result);
    return 0;
  }
  if (result.lines.length === 0) {
    const remote = config.mcpServers[server]!.type !== 'stdio';
    process.stdout.write(`MCP server "${server}" has written nothing to stderr${remote ? ' (a server reached by URL has no stderr here)' : ''}.\n`);
    return 0;
  }
  for (const line of result.lines) {
    const at = new Date(line.at).toISOString().slice(11, 23);
    process.stdout.write(line.marker ? `${at}  --- ${line.text} ---\n` : `${at}  ${line.text}\n`);
  }
  return 0;
}

async function test(name: string | undefined, json: boolean): Promise<number> {
  const config = loadConfig(statePaths().config);
  const server = knownServer(config, name, 'test');
  if (typeof server === 'number') return server;
  const entry = config.mcpServers[server]!;
  const { probeMcpServer } = await import('../../tools/index.js');
  if (!json) process.stdout.write(`Testing MCP server "${server}" (${entry.type}: ${describeTarget(entry)})…\n`);
  const report = await probeMcpServer(server, entry);
  if (json) {
    printJson(report);
    return report.ok ? 0 : 1;
  }
  const out = (text: string) => process.stdout.write(`${text}\n`);
  if (!report.ok) {
    out(`FAILED: ${report.error ?? 'unknown error'}`);
    const said = report.stderr.filter((line) => !line.marker).slice(-10);
    if (said.length > 0) {
      out('Last stderr lines:');
      for (const line of said) out(`  ${line.text}`);
    }
    return 1;
  }
  out(`  connect  ${report.initializeMs} ms (start and initialize)`);
  out(
    `  list     ${report.listMs} ms (${report.tools.length} tools, ${report.prompts.length} prompts, ${report.resources} resources, ${report.templates} templates)`,
  );
  out(`  ping     ${report.pingMs} ms`);
  if (report.tools.length > 0) out(`  tools:   ${report.tools.join(', ')}`);
  if (report.prompts.length > 0) out(`  prompts: ${report.prompts.join(', ')}`);
  for (const tool of report.skippedTools) out(`  left out: ${tool.name}: ${tool.reason}`);
  for (const warning of report.warnings) out(`  warning: ${warning}`);
  if (entry.enabled === false) out(`OK (note: "${server}" is disabled in claw.json, so the gateway does not connect it)`);
  else out('OK');
  return 0;
}

const restartHint = ' If the gateway is running, `claw gateway restart` applies the change.';

/** Tries to open a URL in the desktop's browser; over SSH (no display) the URL printed is all there is. */
async function openBrowser(url: string): Promise<boolean> {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  const { spawn } = await import('node:child_process');
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  return new Promise((resolve) => {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/**
 * `claw mcp login NAME`: the gateway starts the login and catches the
 * redirect on its own loopback listener, so a browser on the gateway's
 * machine completes it by itself; from another machine (claw attach, ssh)
 * the owner pastes the address the browser ended on.
 */
async function login(name: string | undefined, json: boolean): Promise<number> {
  const config = loadConfig(statePaths().config);
  const server = knownServer(config, name, 'login');
  if (typeof server === 'number') return server;
  if (config.mcpServers[server]!.type === 'stdio') return fail(`MCP server "${server}" runs locally (stdio): it has no login.`, 1);
  const done = await withGateway(async (client) => {
    const ready = new Promise<McpServerInfo>((resolve) => {
      client.on('mcp.changed', (payload) => {
        const info = (payload as { servers: McpServerInfo[] }).servers.find((entry) => entry.name === server);
        if (info && (info.state === 'ready' || info.state === 'error')) resolve(info);
      });
    });
    const started = await client.request('mcp.login', { name: server });
    if (!started.url) return started.server;
    if (json) printJson({ server, url: started.url });
    else {
      const opened = await openBrowser(started.url);
      process.stdout.write(
        `${opened ? 'Opened your browser to log in' : 'Open this address to log in'} to MCP server "${server}":\n\n  ${started.url}\n\n` +
          'Waiting for the login (the gateway catches the redirect). If the browser runs on another machine and ends on an address it cannot open,\n' +
          'paste that address here and press Enter. Ctrl+C gives up.\n',
      );
    }
    const pasted = process.stdin.isTTY ? readPastedCallback() : new Promise<never>(() => undefined);
    const result = await Promise.race([ready, pasted.then(async (callbackUrl) => (await client.request('mcp.login', { name: server, callbackUrl })).server)]);
    process.stdin.pause();
    return result.state === 'ready' || result.state === 'connecting' ? await ready : result;
  });
  if (!done)
    return fail(
      `no gateway is running; a login is kept by the gateway that uses it. Start it with \`claw gateway start\`, then run \`claw mcp login ${server}\` again.`,
      1,
    );
  if (json) printJson({ server: done });
  if (done.state !== 'ready') return fail(`the login to "${server}" did not work: ${done.lastError ?? done.state}.`, 1);
  if (!json) process.stdout.write(`Logged in to MCP server "${server}": ${done.toolCount} tool${done.toolCount === 1 ? '' : 's'}.\n`);
  return 0;
}

function readPastedCallback(): Promise<string> {
  return new Promise((resolve) => {
    let buffer = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((candidate) => /^https?:\/\//.test(candidate.trim()));
      if (line) resolve(line.trim());
    });
  });
}

async function logout(name: string | undefined, json: boolean): Promise<number> {
  const config = loadConfig(statePaths().config);
  const server = knownServer(config, name, 'logout');
  if (typeof server === 'number') return server;
  const result = await withGateway((client) => client.request('mcp.logout', { name: server }));
  if (!result) {
    const { forgetMcpCredentials } = await import('../../tools/index.js');
    const removed = forgetMcpCredentials(join(statePaths().credentials, 'mcp'), server);
    if (json) printJson({ removed });
    else process.stdout.write(removed ? `Forgot the tokens of MCP server "${server}".\n` : `MCP server "${server}" had no stored login.\n`);
    return 0;
  }
  if (json) printJson(result);
  else
    process.stdout.write(result.removed ? `Logged out of MCP server "${server}"; it needs a login again.\n` : `MCP server "${server}" had no stored login.\n`);
  return 0;
}

/**
 * `claw mcp inputs NAME`: asks for every `${input:ID}` the server's settings
 * use (hidden when VS Code's input says password) and keeps the answers in
 * credentials/mcp-inputs.json (0600); a running gateway starts the server at
 * its next retry.
 */
async function inputs(name: string | undefined): Promise<number> {
  const config = loadConfig(statePaths().config);
  const server = knownServer(config, name, 'inputs');
  if (typeof server === 'number') return server;
  const entry = config.mcpServers[server]!;
  const { inputsUsed, readMcpInputs, saveMcpInput } = await import('../../tools/index.js');
  const used = inputsUsed(entry);
  if (used.length === 0) {
    process.stdout.write(`MCP server "${server}" uses no \${input:…} value.\n`);
    return 0;
  }
  if (!process.stdin.isTTY) return fail(`MCP server "${server}" needs ${used.join(', ')}; run \`claw mcp inputs ${server}\` in a terminal to type them.`, 1);
  const file = join(statePaths().credentials, 'mcp-inputs.json');
  const stored = readMcpInputs(file);
  const { Prompter } = await import('../setup/prompter.js');
  const prompter = new Prompter();
  try {
    for (const id of used) {
      const input = entry.inputs?.find((candidate) => candidate.id === id);
      const label = `${input?.description ?? id}${stored[id] !== undefined ? ' (Enter keeps the stored value)' : ''}: `;
      const value = input?.password ? await prompter.askHidden(label) : await prompter.ask(label);
      if (value !== '') saveMcpInput(file, id, value);
      else if (stored[id] === undefined) return fail(`no value for "${id}"; nothing else was asked.`, 1);
    }
  } finally {
    prompter.close();
  }
  process.stdout.write(
    `Kept ${used.length} value${used.length === 1 ? '' : 's'} for MCP server "${server}" in ${file}; a running gateway starts it at its next retry.\n`,
  );
  return 0;
}

function wantsHelp(argv: readonly string[]): boolean {
  const own = wordsAfterMcp(argv);
  const end = own.indexOf('--');
  return own[0] === 'help' || (end === -1 ? own : own.slice(0, end)).some((word) => word === '--help' || word === '-h');
}

export const run: CommandRun = async ({ args, flags, argv }) => {
  if (wantsHelp(argv) || flags.help === true) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const [action, name] = args;
  const file = statePaths().config;
  switch (action) {
    case undefined:
    case 'list':
      return list(flags.json);
    case 'logs':
      return logs(name, flags.json);
    case 'test':
      return test(name, flags.json);
    case 'login':
      return login(name, flags.json);
    case 'logout':
      return logout(name, flags.json);
    case 'inputs':
      return inputs(name);
    case 'add': {
      const parsed = parseAdd(wordsAfterMcp(argv).slice(1));
      if (typeof parsed === 'string') return fail(`${parsed}\n${usage}`);
      const raw = readRawConfig(file);
      const servers = (raw.mcpServers ?? {}) as Record<string, unknown>;
      if (servers[parsed.name] !== undefined)
        return fail(`a server named "${parsed.name}" already exists; remove it first with \`claw mcp remove ${parsed.name}\`.`, 1);
      writeRawConfig(file, { ...raw, mcpServers: { ...servers, [parsed.name]: parsed.entry } });
      process.stdout.write(`Added MCP server "${parsed.name}" to ${file}.${restartHint} Try it now with \`claw mcp test ${parsed.name}\`.\n`);
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
