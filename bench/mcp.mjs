// MCP tool call round trip over stdio against the SDK test server: connect time, then
// p50/p99 of a bare client call and of the same call through claw's registry (validation,
// approval check, untrusted fence). The ratio is measured inside one run.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpManager, ToolRegistry } from '../dist/tools/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = {
  command: process.execPath,
  args: ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'test/support/mcp-stdio-server.ts')],
};
const N = 1000;
const WARMUP = 50;

function percentile(sorted, p) { return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]; }
async function sample(fn) {
  for (let i = 0; i < WARMUP; i += 1) await fn(i);
  const times = [];
  for (let i = 0; i < N; i += 1) { const t = performance.now(); await fn(i); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3) };
}

const bare = new Client({ name: 'bench', version: '1' });
await bare.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
const bareMs = await sample((i) => bare.callTool({ name: 'echo', arguments: { text: `m${i}` } }));
await bare.close();

const registry = new ToolRegistry();
const manager = new McpManager({ bench: { ...server, env: {}, trust: 'allow', enabled: true, timeoutMs: 60_000 } }, { registry });
const started = performance.now();
manager.start();
while (manager.status()[0].state !== 'ready') {
  if (manager.status()[0].state === 'error') throw new Error(manager.status()[0].lastError);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const connectMs = performance.now() - started;
const context = {
  agentId: 'main', sessionKey: 'bench', sessionType: 'main', workspaceDir: root, signal: new AbortController().signal,
  onUpdate() {}, approvals: { request: async () => { throw new Error('trust is allow'); }, approvedForSession: () => false },
};
const clawMs = await sample(async (i) => {
  const result = await registry.invoke('mcp__bench__echo', { text: `m${i}` }, context);
  if (result.isError) throw new Error(result.content);
});
await manager.close();

console.log(JSON.stringify({
  calls: N,
  connectMs: Math.round(connectMs),
  bareCallMs: bareMs,
  clawCallMs: clawMs,
  addedP50Ms: +(clawMs.p50 - bareMs.p50).toFixed(3),
}));
