// What a plugin costs, on real gateway children (dist/) in fresh state dirs. Prints one JSON object:
//  - readyMs / gatewayRssMb: `claw gateway start` until ready, and the gateway's RSS once warm,
//    with no plugin installed and with the example plugin enabled (median of --runs starts each);
//  - pluginStartMs: the plugin's process started in bwrap until its setup() finished (in the background);
//  - pluginRssMb: that process's resident memory (bwrap and the Node below it);
//  - firstCallMs / callMs: the first `/weather` (a plugin command) through the gateway, then p50 of the next ones;
// Run: node scripts/ensure-build.mjs && npx tsx bench/plugins.ts [--runs N]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectLocal, readGatewayInfoSync } from '../source/client/index.js';
import { grantPlugin, installPlugin, pluginPaths, readManifest } from '../source/plugins/index.js';
import { runCli, runCliSync } from '../test/support/cli-process.js';
import { makeTempState, type TempState } from '../test/support/temp-state.js';

const argRuns = Number(process.argv[process.argv.indexOf('--runs') + 1]);
const RUNS = Number.isFinite(argRuns) && argRuns > 0 ? argRuns : 3;
const CALLS = 20;
const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'plugins', 'acme-weather');

const median = (values: number[]): number => Number([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(1));
const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const rssMb = (pid: number): number => Number((rssKb(pid) / 1024).toFixed(1));

/** RSS of a process and all its descendants: the plugin's pid is bwrap's, Node runs below it. */
function treeRssMb(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {}
  }
  let kb = 0;
  const walk = (pid: number): void => {
    try {
      kb += rssKb(pid);
    } catch {}
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return Number((kb / 1024).toFixed(1));
}

interface Run {
  readyMs: number;
  gatewayRssMb: number;
  pluginStartMs?: number;
  pluginRssMb?: number;
  firstCallMs?: number;
  callMs?: number;
}

async function once(withPlugin: boolean): Promise<Run> {
  const state: TempState = makeTempState('claw-bench-plugins-');
  try {
    if (withPlugin) {
      const paths = pluginPaths(state.paths);
      const { manifest } = installPlugin(paths, EXAMPLE);
      grantPlugin(paths, manifest.id, readManifest(paths.dir(manifest.id)).permissions, Date.now());
    }
    const started = performance.now();
    const start = await runCli(['gateway', 'start', '--port', '0'], state.env, 60_000);
    if (start.code !== 0) throw new Error(start.stderr);
    const readyMs = performance.now() - started;
    const info = readGatewayInfoSync(state.paths);
    if (!info) throw new Error('no gateway.json');
    process.env.CLAW_STATE_DIR = state.dir;
    const client = await connectLocal(state.paths);
    try {
      const run: Run = { readyMs, gatewayRssMb: 0 };
      if (withPlugin) {
        let plugin = (await client.request('plugins.list', {})).plugins[0];
        for (let i = 0; i < 500 && plugin?.state !== 'running'; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          plugin = (await client.request('plugins.list', {})).plugins[0];
        }
        if (plugin?.state !== 'running' || plugin.pid === undefined) throw new Error(`plugin did not start: ${plugin?.error}`);
        run.pluginStartMs = plugin.startMs;
        let callStarted = performance.now();
        await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/weather' });
        run.firstCallMs = Number((performance.now() - callStarted).toFixed(1));
        const calls: number[] = [];
        for (let i = 0; i < CALLS; i += 1) {
          callStarted = performance.now();
          await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/weather' });
          calls.push(performance.now() - callStarted);
        }
        run.callMs = median(calls);
        run.pluginRssMb = treeRssMb(plugin.pid);
      } else await new Promise((resolve) => setTimeout(resolve, 300));
      run.gatewayRssMb = rssMb(info.pid);
      return run;
    } finally {
      client.close();
    }
  } finally {
    runCliSync(['gateway', 'stop'], state.env);
    state.cleanup();
  }
}

const without: Run[] = [];
const withOne: Run[] = [];
for (let i = 0; i < RUNS; i += 1) {
  without.push(await once(false));
  withOne.push(await once(true));
}
const pick = (runs: Run[], key: keyof Run) => median(runs.map((run) => run[key] ?? 0));
const result = {
  runs: RUNS,
  noPlugin: { readyMs: pick(without, 'readyMs'), gatewayRssMb: pick(without, 'gatewayRssMb') },
  onePlugin: {
    readyMs: pick(withOne, 'readyMs'),
    gatewayRssMb: pick(withOne, 'gatewayRssMb'),
    pluginStartMs: pick(withOne, 'pluginStartMs'),
    pluginRssMb: pick(withOne, 'pluginRssMb'),
    firstCallMs: pick(withOne, 'firstCallMs'),
    callMs: pick(withOne, 'callMs'),
  },
  readyRatio: Number((pick(withOne, 'readyMs') / pick(without, 'readyMs')).toFixed(2)),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
