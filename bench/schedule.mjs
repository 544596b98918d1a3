// Schedule benchmark, against real gateway children (`dist/cli/main.js gateway
// run`, echo runner): CPU of an idle gateway with 1,000 cron jobs against one
// with none (from /proc/<pid>/stat), RSS of both, and due-to-started latency
// of one-shot jobs (run log `started` time and the `cron` event's arrival,
// minus the slot). Prints one JSON object. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient, readGatewayInfoSync } from '../dist/client/index.js';
import { readGatewayTokenSync, statePaths } from '../dist/config/index.js';
import { RunLog } from '../dist/schedule/index.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const LATENCY_JOBS = 20;
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const TICKS = 100; // USER_HZ on Linux

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round((Number(line.split(/\s+/)[1]) / 1024) * 10) / 10;
}

/** Jobs due once a day, none of them inside the measurement window. */
function writeJobs(paths, count, now) {
  const jobs = [];
  for (let i = 0; i < count; i += 1) {
    const minute = i % 60;
    const hour = (new Date(now).getUTCHours() + 12 + (i % 6)) % 24;
    jobs.push({
      id: `bench-${i}`,
      name: `bench ${i}`,
      agentId: 'main',
      enabled: true,
      schedule: { kind: 'cron', expr: `${minute} ${hour} * * *` },
      anchorAt: now,
      sessionTarget: 'isolated',
      payload: { kind: 'agentTurn', message: `job ${i}` },
      delivery: { mode: 'none' },
      deleteAfterRun: false,
      catchUp: 'skip',
      retryInterrupted: false,
      allowScheduling: false,
      createdAt: now,
      createdBy: 'bench',
      state: { consecutiveErrors: 0, scheduleErrors: 0 },
    });
  }
  mkdirSync(paths.cron, { recursive: true });
  writeFileSync(join(paths.cron, 'jobs.json'), JSON.stringify({ version: 1, jobs }));
}

async function startChild(jobs) {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-schedule-'));
  const paths = statePaths(dir);
  writeFileSync(paths.config, JSON.stringify({ agents: { defaults: { heartbeat: { every: '0' } } } }));
  if (jobs > 0) writeJobs(paths, jobs, Date.now());
  const env = { ...process.env, CLAW_STATE_DIR: dir, CLAW_TEST_RUNNER: 'echo' };
  delete env.CLAW_GATEWAY_PORT;
  delete env.CLAW_GATEWAY_TOKEN;
  const child = spawn(process.execPath, [CLI, 'gateway', 'run', '--port', '0'], { env, stdio: 'ignore' });
  for (let i = 0; i < 1200; i += 1) {
    const info = readGatewayInfoSync(paths);
    if (
      info?.pid === child.pid &&
      (await fetch(`http://127.0.0.1:${info.port}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      return {
        child,
        paths,
        port: info.port,
        cleanup: () => {
          child.kill('SIGKILL');
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('gateway child did not start');
}

async function idle(jobs) {
  const gateway = await startChild(jobs);
  await sleep(3000); // start-up work (loading, first timers) is not idle time
  const before = cpuSeconds(gateway.child.pid);
  await sleep(IDLE_SECONDS * 1000);
  const cpu = cpuSeconds(gateway.child.pid) - before;
  return { gateway, cpuPercent: (cpu / IDLE_SECONDS) * 100, rssMb: rssMb(gateway.child.pid) };
}

async function latency(gateway) {
  const token = readGatewayTokenSync(gateway.paths, {});
  const client = new GatewayClient({ url: `ws://127.0.0.1:${gateway.port}`, token, clientName: 'bench' });
  await client.connect();
  const arrivals = new Map();
  client.on('cron', (event) => {
    if (event.phase === 'started' && event.run) arrivals.set(event.jobId, Date.now() - event.run.scheduledAt);
  });
  const ids = [];
  for (let i = 0; i < LATENCY_JOBS; i += 1) {
    const { job } = await client.request('cron.add', {
      job: { name: `soon ${i}`, schedule: { kind: 'at', at: `${2 + i * 0.25}s` }, payload: { kind: 'agentTurn', message: 'now' }, deleteAfterRun: false },
    });
    ids.push(job.id);
  }
  for (let i = 0; i < 200 && arrivals.size < LATENCY_JOBS; i += 1) await sleep(100);
  client.close();
  const log = new RunLog(join(gateway.paths.cron, 'runs'));
  const started = ids.flatMap((id) =>
    log
      .runs(id)
      .filter((run) => run.startedAt !== undefined)
      .map((run) => run.startedAt - run.scheduledAt),
  );
  const events = [...arrivals.values()];
  return {
    jobs: LATENCY_JOBS,
    startedRecordMs: { p50: percentile(started, 50), p95: percentile(started, 95), max: Math.max(...started) },
    eventAtClientMs: { p50: percentile(events, 50), p95: percentile(events, 95), max: Math.max(...events) },
  };
}

const empty = await idle(0);
empty.gateway.cleanup();
const loaded = await idle(JOBS);
const dueToStarted = await latency(loaded.gateway);
loaded.gateway.cleanup();
const schedulerPercent = Math.max(0, loaded.cpuPercent - empty.cpuPercent);
console.log(
  JSON.stringify(
    {
      idleSeconds: IDLE_SECONDS,
      jobs: JOBS,
      idleCpuPercentOfCore: {
        noJobs: Math.round(empty.cpuPercent * 1000) / 1000,
        withJobs: Math.round(loaded.cpuPercent * 1000) / 1000,
        scheduler: Math.round(schedulerPercent * 1000) / 1000,
        target: 0.1,
      },
      schedulerCpuSecondsPerHour: Math.round(schedulerPercent * 36 * 100) / 100,
      rssMb: { noJobs: empty.rssMb, withJobs: loaded.rssMb, growth: Math.round((loaded.rssMb - empty.rssMb) * 10) / 10 },
      dueToStarted: { ...dueToStarted, targetMs: 50 },
      note: 'CPU from /proc/<pid>/stat at 10 ms resolution: over a short window the difference between the two gateways is near that resolution; raise BENCH_IDLE_SECONDS for a tighter figure',
    },
    null,
    2,
  ),
);
