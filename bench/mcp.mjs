// MCP round trip of a trivial tool call over stdio and streamable HTTP, bare SDK client vs
// the same call through claw's registry (validation, approval check, untrusted fence), as
// p50/p99 and a ratio measured inside one run (target ≤ 1.5×; stdio also against a bare server in its own session). Then gateway-start behaviour:
// how long McpManager.start() blocks (servers connect in the background) and how long each of
// SERVERS stdio servers takes to be ready when they all connect in parallel.
// Needs `npm run build` first. Prints one JSON object.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpManager, ToolRegistry } from '../dist/tools/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href];
const stdioServer = { command: process.execPath, args: [...tsx, join(root, 'test/support/mcp-stdio-server.ts')] };
const N = Number(process.env.MCP_BENCH_CALLS ?? 1000);
const WARMUP = 50;
const SERVERS = Number(process.env.MCP_BENCH_SERVERS ?? 4);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: +percentile(sorted, 50).toFixed(3), p99: +percentile(sorted, 99).toFixed(3) };
}

/** Alternates the two paths call by call (and which goes first) so machine noise hits both alike. */
async function compare(bareCall, clawCall) {
  for (let i = 0; i < WARMUP; i += 1) {
    await bareCall(i);
    await clawCall(i);
  }
  const bare = [];
  const claw = [];
  for (let i = 0; i < N; i += 1) {
    const order =
      i % 2 === 0
        ? [
            [bareCall, bare],
            [clawCall, claw],
          ]
        : [
            [clawCall, claw],
            [bareCall, bare],
          ];
    for (const [call, times] of order) {
      const t = performance.now();
      await call(i);
      times.push(performance.now() - t);
    }
  }
  return { bare: summary(bare), claw: summary(claw) };
}

const context = {
  agentId: 'main',
  sessionKey: 'bench',
  sessionType: 'main',
  workspaceDir: root,
  signal: new AbortController().signal,
  onUpdate() {},
  approvals: {
    request: async () => {
      throw new Error('trust is allow');
    },
    approvedForSession: () => false,
  },
};
const common = { trust: 'allow', enabled: true, timeoutMs: 60_000, maxTimeoutMs: 600_000, sampling: false };

async function ready(manager, names) {
  const started = performance.now();
  const readyAt = {};
  while (Object.keys(readyAt).length < names.length) {
    for (const status of manager.status()) {
      if (status.state === 'error') throw new Error(`${status.name}: ${status.lastError}`);
      if (status.state === 'ready' && readyAt[status.name] === undefined) readyAt[status.name] = Math.round(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return readyAt;
}

async function roundTrip(label, bareTransport, entry) {
  const bare = new Client({ name: 'bench', version: '1' });
  const bareStarted = performance.now();
  await bare.connect(bareTransport());
  const bareConnectMs = Math.round(performance.now() - bareStarted);

  const registry = new ToolRegistry();
  const manager = new McpManager({ bench: entry }, { registry });
  manager.start();
  const { bench: clawConnectMs } = await ready(manager, ['bench']);
  const { bare: bareMs, claw: clawMs } = await compare(
    (i) => bare.callTool({ name: 'echo', arguments: { text: `m${i}` } }),
    async (i) => {
      const result = await registry.invoke('mcp__bench__echo', { text: `m${i}` }, context);
      if (result.isError) throw new Error(result.content);
    },
  );
  await bare.close();
  await manager.close();
  return {
    [label]: {
      bareConnectMs,
      clawConnectMs,
      bareCallMs: bareMs,
      clawCallMs: clawMs,
      ratioP50: +(clawMs.p50 / bareMs.p50).toFixed(2),
      ratioP99: +(clawMs.p99 / bareMs.p99).toFixed(2),
    },
  };
}

// claw starts each stdio server in a session of its own (so stopping it ends its whole process group), which the
// kernel's autogroup scheduler treats as a separate group: on a loaded machine that alone costs milliseconds per
// wake-up. So stdio is measured twice: against a bare server spawned plainly, and against one started with setsid
// like claw's (`stdioBareSetsid`), which compares claw's own code like with like.
const stdioEntry = { type: 'stdio', ...stdioServer, env: {}, ...common };
const stdio = await roundTrip('stdio', () => new StdioClientTransport({ ...stdioServer, stderr: 'ignore' }), stdioEntry);
const setsidServer = { command: 'setsid', args: [stdioServer.command, ...stdioServer.args] };
const stdioSetsid = await roundTrip('stdioBareSetsid', () => new StdioClientTransport({ ...setsidServer, stderr: 'ignore' }), stdioEntry);

const http = spawn(process.execPath, [...tsx, join(root, 'test/support/mcp-http-server.ts'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => {
  let out = '';
  http.stdout.on('data', (chunk) => {
    out += chunk;
    const m = /listening (\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
});
const url = `http://127.0.0.1:${port}/mcp`;
const httpResult = await roundTrip('http', () => new StreamableHTTPClientTransport(new URL(url)), { type: 'http', url, headers: {}, ...common });
http.kill('SIGKILL');

// Gateway start: start() must return at once; the servers connect in parallel behind it.
const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`s${i}`, { type: 'stdio', ...stdioServer, env: {}, ...common }]));
const manager = new McpManager(servers, { registry: new ToolRegistry() });
const startCall = performance.now();
manager.start();
const startBlocksMs = +(performance.now() - startCall).toFixed(2);
const readyMs = await ready(manager, Object.keys(servers));
await manager.close();
const times = Object.values(readyMs);

console.log(
  JSON.stringify({
    calls: N,
    // Scheduling noise dominates sub-millisecond round trips; the load says how much to trust the figures.
    loadAverage1m: +loadavg()[0].toFixed(1),
    ...stdio,
    ...stdioSetsid,
    ...httpResult,
    gatewayStart: { servers: SERVERS, startBlocksMs, readyMsPerServer: readyMs, allReadyMs: Math.max(...times), soloConnectMs: stdio.stdio.clawConnectMs },
  }),
);
