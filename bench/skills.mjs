// Skills costs: discovery + parse + status of 200 skill folders (cold: a new
// service; the target is < 50 ms), the <available_skills> block's size
// for 200 skills in full and compact form, and the watcher's add-to-snapshot
// latency. Prints one JSON object. Run after `npm run build`: node bench/skills.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, statePaths } from '../dist/config/index.js';
import { buildPromptBlock, SkillsService } from '../dist/skills/index.js';

const SKILLS = 200;
const RUNS = 30;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(3));
}

function p95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))].toFixed(3));
}

/** A skill as people write them: a realistic description, nested metadata, a body, scripts/ and references/. */
function writeSkill(root, i) {
  const name = `skill-${String(i).padStart(3, '0')}`;
  const dir = join(root, i % 4 === 0 ? join('group', name) : name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  mkdirSync(join(dir, 'references'), { recursive: true });
  const description = `Handles task family ${i}: collects the inputs, runs the checks and writes a short report. Use when the user asks about topic ${i}, its reports or its checks.`;
  writeFileSync(
    join(dir, 'SKILL.md'),
    [
      '---',
      `name: ${name}`,
      `description: "${description}"`,
      'license: MIT',
      'allowed-tools: read exec',
      'metadata:',
      '  claw:',
      `    requires: {bins: [${i % 10 === 0 ? 'definitely-missing' : 'node'}], env: []}`,
      `    argument-hint: "<target>"`,
      '  openclaw: {"emoji": "🔧", "requires": {"anyBins": ["node", "nodejs"]}}',
      '---',
      '',
      `# ${name}`,
      ...Array.from(
        { length: 40 },
        (_, line) => `${line + 1}. Step ${line + 1} of the procedure for topic ${i}: run \`scripts/run.sh ${line}\` and check the output.`,
      ),
    ].join('\n'),
  );
  writeFileSync(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\necho ok\n');
  writeFileSync(join(dir, 'references', 'notes.md'), '# Notes\n');
}

const state = mkdtempSync(join(tmpdir(), 'claw-bench-skills-'));
const home = join(state, 'home');
const paths = statePaths(state);
const root = join(paths.workspace('main'), 'skills');
for (let i = 0; i < SKILLS; i += 1) writeSkill(root, i);
const bundled = join(state, 'bundled');
mkdirSync(bundled);
const config = loadConfig(paths.config);
const options = { config, paths, workspaceDir: () => paths.workspace('main'), home, bundledDir: bundled, env: process.env };

// Wall time suffers when other processes share the cores; CPU time of this process shows the cost itself.
const cold = [];
const coldCpu = [];
let skills;
for (let run = 0; run < RUNS; run += 1) {
  const service = new SkillsService(options);
  const cpu = process.cpuUsage();
  const start = performance.now();
  skills = service.agent('main');
  cold.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  coldCpu.push((used.user + used.system) / 1000);
}
const cached = new SkillsService(options);
cached.agent('main');
const hits = [];
for (let run = 0; run < 1000; run += 1) {
  const start = performance.now();
  cached.snapshot('main');
  hits.push(performance.now() - start);
}

const offered = skills.ready.map((skill) => ({ name: skill.name, description: skill.manifest.description, location: skill.file }));
const full = buildPromptBlock(offered, Number.MAX_SAFE_INTEGER);
const compact = buildPromptBlock(offered, full.block.length - 1);
const atDefault = buildPromptBlock(offered, config.skills.limits.maxPromptChars);

// Watcher: time from writing a new SKILL.md to the refreshed snapshot (default debounce).
const watched = new SkillsService(options);
await watched.start();
const latencies = [];
for (let i = 0; i < 5; i += 1) {
  const changed = new Promise((resolve) => {
    const off = watched.onChange(() => {
      off();
      resolve();
    });
  });
  const start = performance.now();
  writeSkill(root, SKILLS + i);
  await changed;
  latencies.push(performance.now() - start);
}
await watched.stop();
rmSync(state, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      skills: SKILLS,
      ready: skills.ready.length,
      discoverParseStatusMs: { median: median(cold), p95: p95(cold), cpuMedian: median(coldCpu), runs: RUNS, targetMs: 50 },
      loadAverage1m: Number((await import('node:os')).loadavg()[0].toFixed(2)),
      cachedSnapshotMs: { median: median(hits), p95: p95(hits) },
      blockChars: { full: full.block.length, compact: compact.block.length, compactRatio: Number((compact.block.length / full.block.length).toFixed(3)) },
      atDefaultBudget: {
        maxPromptChars: config.skills.limits.maxPromptChars,
        form: atDefault.form,
        chars: atDefault.block.length,
        listed: atDefault.listed.length,
        omitted: atDefault.omitted.length,
      },
      watcherAddToSnapshotMs: { median: median(latencies), max: Number(Math.max(...latencies).toFixed(1)), debounceMs: config.skills.load.watchDebounceMs },
    },
    null,
    2,
  ),
);
