// The workspace watchers under file churn: `status` RPC round trips on a real
// gateway, quiet and then while 200 files/s are created, rewritten and
// removed in the workspace root (a fresh workspace has no skills/ folder, so
// the skills watcher watches its parent). The target: status p99 < 50 ms.
// Usage: npm run build && node bench/watcher-churn.mjs [--seconds=5]. Prints one JSON object.
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayClient } from '../dist/client/index.js';
import { freshState, round, sleep, startGateway } from './startup-support.mjs';

const seconds = Number(process.argv.find((arg) => arg.startsWith('--seconds='))?.split('=')[1] ?? 5);
const RATE = 200;
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
  return { p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1)), calls: sorted.length };
}

async function statusRoundTrips(client, ms) {
  const samples = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const start = performance.now();
    await client.request('status', {});
    samples.push(performance.now() - start);
    await sleep(5);
  }
  return samples;
}

/** Creates, rewrites and removes files in `dir` at RATE changes per second until stopped. */
function churn(dir) {
  let changes = 0;
  let running = true;
  const done = (async () => {
    const started = performance.now();
    while (running) {
      const due = Math.floor(((performance.now() - started) / 1000) * RATE);
      for (; changes < due; changes += 1) {
        const file = join(dir, `churn-${changes % 50}.txt`);
        if (changes % 3 === 2) rmSync(file, { force: true });
        else writeFileSync(file, `change ${changes}\n`);
      }
      await sleep(5);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return changes;
    },
  };
}

const state = freshState('claw-bench-churn-');
const gateway = await startGateway(process.execPath, cli, state);
const client = new GatewayClient({ url: `ws://127.0.0.1:${gateway.port}`, token: gateway.token, clientName: 'bench' });
try {
  await client.connect();
  const workspace = join(state.dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  await statusRoundTrips(client, 500);
  const quiet = await statusRoundTrips(client, seconds * 1000);
  const load = churn(workspace);
  const busy = await statusRoundTrips(client, seconds * 1000);
  const changes = await load.stop();
  for (let i = 0; i < 50; i += 1) {
    try {
      unlinkSync(join(workspace, `churn-${i}.txt`));
    } catch {}
  }
  const q = percentiles(quiet);
  const b = percentiles(busy);
  console.log(
    JSON.stringify({
      changesPerSecond: round(changes / seconds, 1),
      statusQuietMs: q,
      statusDuringChurnMs: b,
      p99Ratio: round(b.p99 / q.p99),
      targetP99Ms: 50,
      met: b.p99 < 50,
    }),
  );
} finally {
  client.close();
  await gateway.stop();
  state.cleanup();
}
