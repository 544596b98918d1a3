// Browser tool costs against a fixture site on loopback, with the real sandboxed Chromium. Prints one JSON object.
//  - launch: the first call (Chromium started inside bwrap, guard proxy up, page loaded, snapshot taken);
//  - navigateSnapshot: navigate + snapshot of a small local page on a warm browser, p50/p95 (ms);
//  - bigPage: a page with 10,000 links: the snapshot's size as returned (chars, capped) and the time;
//  - rssMb: resident memory of every Chromium process of the profile (from /proc), after the runs;
//  - gatewayLoadsPlaywright: whether building the browser tool (what a gateway start does) loads playwright-core.
// Run: npx tsx bench/browser.ts [--runs N]
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, writeRawConfig } from '../source/config/index.js';
import { createBrowser, createToolsRuntime } from '../source/tools/index.js';
import { startBrowserFixture } from '../test/support/browser-fixture.js';
import { makeTempState } from '../test/support/temp-state.js';
import { mainSessionContext } from '../test/support/tool-context.js';

const argRuns = Number(process.argv[process.argv.indexOf('--runs') + 1]);
const RUNS = Number.isFinite(argRuns) && argRuns > 0 ? argRuns : 30;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(1));
};

function profileRssMb(profile: string): number {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(`--user-data-dir=${profile}`)) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return Number((kb / 1024).toFixed(1));
}

const playwrightLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('playwright-core'));

const state = makeTempState('claw-bench-browser-');
const fixture = await startBrowserFixture();
writeRawConfig(state.paths.config, { tools: { web: { allowPrivate: ['127.0.0.1'] } } });
const config = loadConfig(state.paths.config);
const runtime = createToolsRuntime({ config, paths: state.paths });
const browser = createBrowser({ tools: () => config.tools, paths: state.paths, sandbox: runtime.sandbox, redactor: runtime.redactor });
runtime.registry.register(browser.tool as never);
const gatewayLoadsPlaywright = playwrightLoaded();
const context = mainSessionContext(runtime, state.paths.workspace('main'));
const call = (args: Record<string, unknown>) => runtime.registry.invoke('browser', args, context);

try {
  let started = performance.now();
  const first = await call({ action: 'navigate', url: `${fixture.site}/next` });
  if (first.isError) throw new Error(first.content);
  const launch = Number((performance.now() - started).toFixed(1));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    started = performance.now();
    await call({ action: 'navigate', url: `${fixture.site}/${i % 2 ? 'next' : ''}` });
    await call({ action: 'snapshot' });
    times.push(performance.now() - started);
  }
  started = performance.now();
  const big = await call({ action: 'navigate', url: `${fixture.site}/big` });
  const bigMs = Number((performance.now() - started).toFixed(1));
  const rssMb = profileRssMb(join(state.paths.root, 'browser', 'main', 'profile'));
  console.log(
    JSON.stringify({
      launchMs: launch,
      navigateSnapshot: { runs: RUNS, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) },
      bigPage: { links: 10_000, chars: big.content.length, cap: config.tools.browser.snapshotMaxChars, ms: bigMs, cut: big.details?.cut },
      rssMb,
      gatewayLoadsPlaywright,
    }),
  );
} finally {
  await browser.stop();
  await runtime.close();
  await fixture.close();
  state.cleanup();
}
