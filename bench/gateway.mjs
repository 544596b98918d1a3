// Gateway figures from the issue: cold start to /readyz, idle RSS and CPU,
// `health` RPC round trip, `claw status` wall time. Prints one JSON object.
// Usage: npm run build && node bench/gateway.mjs [--quick]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayClient } from '../dist/client/index.js';
import { readJson, readyStatus } from './startup-support.mjs';

const quick = process.argv.includes('--quick');
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const CLK_TCK = 100;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: round(percentile(sorted, 50)), min: round(sorted[0]), max: round(sorted.at(-1)), runs: sorted.length };
}

async function startGateway() {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-'));
  const env = { ...process.env, CLAW_STATE_DIR: dir };
  delete env.CLAW_GATEWAY_PORT;
  delete env.CLAW_GATEWAY_TOKEN;
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, 'gateway', 'run', '--port', '0'], { env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}; see ${dir}/logs`);
    const info = readJson(join(dir, 'gateway.json'));
    if (info?.pid === child.pid && (await readyStatus(info.port)) === 200) {
      return { child, dir, env, port: info.port, readyMs: ms(start), exited };
    }
    await sleep(2);
  }
}

async function stopGateway(gateway) {
  gateway.child.kill('SIGTERM');
  await gateway.exited;
  rmSync(gateway.dir, { recursive: true, force: true });
}

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return round(Number(match[1]) / 1024, 1);
}

function timeProcess(args, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(ms(start)));
  });
}

const result = { quick, loadavg1m: round(loadavg()[0]) };

const cold = [];
for (let i = 0; i < (quick ? 3 : 5); i += 1) {
  const gateway = await startGateway();
  cold.push(gateway.readyMs);
  await stopGateway(gateway);
}
result.coldStartToReadyMs = summary(cold);

const gateway = await startGateway();
const pid = gateway.child.pid;
await sleep(10_000);
result.idleRssMb10s = rssMb(pid);

const cpuWindowMs = quick ? 10_000 : 60_000;
const ticksBefore = cpuTicks(pid);
const cpuStart = process.hrtime.bigint();
await sleep(cpuWindowMs);
result.idleCpuPercent = round(((((cpuTicks(pid) - ticksBefore) / CLK_TCK) * 1000) / ms(cpuStart)) * 100, 3);
result.idleCpuWindowS = cpuWindowMs / 1000;

const token = readFileSync(join(gateway.dir, 'credentials', 'gateway-token'), 'utf8').trim();
const client = new GatewayClient({ url: `ws://127.0.0.1:${gateway.port}`, token, clientName: 'bench' });
await client.connect();
for (let i = 0; i < 500; i += 1) await client.request('health');
const rtt = [];
for (let i = 0; i < 10_000; i += 1) {
  const start = process.hrtime.bigint();
  await client.request('health');
  rtt.push(ms(start));
}
client.close();
rtt.sort((a, b) => a - b);
result.healthRpc = { requests: rtt.length, p50Ms: round(percentile(rtt, 50), 3), p99Ms: round(percentile(rtt, 99), 3) };

const statusRuns = [];
const nodeRuns = [];
for (let i = 0; i < 10; i += 1) {
  nodeRuns.push(await timeProcess(['-e', '0'], gateway.env));
  statusRuns.push(await timeProcess([cli, 'status'], gateway.env));
}
result.clawStatusWallMs = summary(statusRuns);
result.nodeBaselineWallMs = summary(nodeRuns);
result.clawStatusOverNodeBaseline = round(result.clawStatusWallMs.median / result.nodeBaselineWallMs.median);
await stopGateway(gateway);

result.targets = { coldStartToReadyMs: 300, idleRssMb10s: 80, idleCpuPercent: 0.5, healthRpcP50Ms: 0.3, healthRpcP99Ms: 2, clawStatusWallMs: 250 };
result.met = {
  coldStart: result.coldStartToReadyMs.median < 300,
  idleRss: result.idleRssMb10s < 80,
  idleCpu: result.idleCpuPercent < 0.5,
  healthP50: result.healthRpc.p50Ms < 0.3,
  healthP99: result.healthRpc.p99Ms < 2,
  clawStatus: result.clawStatusWallMs.median < 250,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
