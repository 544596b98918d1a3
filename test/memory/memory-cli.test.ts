import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  if (state) runCliSync(['gateway', 'stop'], state.env);
  state?.cleanup();
  state = undefined;
});

function seed(s: TempState): void {
  const workspace = s.paths.workspace('main');
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  writeFileSync(join(workspace, 'MEMORY.md'), '# Facts\n\nThe backup bucket is s3://claw-backups-eu.\n');
  writeFileSync(join(workspace, 'memory', '2026-04-01.md'), '# April\n\n团队决定迁移到新的监控系统。\n');
}

describe('claw memory (no gateway running: works on the index files)', () => {
  it('indexes, searches and reports status', async () => {
    state = makeTempState();
    seed(state);
    const index = await runCli(['memory', 'index'], state.env);
    expect(index.stderr).toBe('');
    expect(index.stdout).toMatch(/indexed: 2 files \(2 changed, 0 removed\)/);
    expect(index.stdout).toMatch(/Keyword-only: no embedding provider is configured/);
    expect(index.code).toBe(0);

    const search = await runCli(['memory', 'search', 'claw-backups-eu', '--json'], state.env);
    expect(search.code).toBe(0);
    const parsed = JSON.parse(search.stdout) as { mode: string; results: { path: string; startLine: number }[]; warnings: string[] };
    expect(parsed.mode).toBe('keyword');
    expect(parsed.results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1 });
    expect(parsed.warnings[0]).toMatch(/no embedding provider/);

    const cjk = await runCli(['memory', 'search', '监控系统'], state.env);
    expect(cjk.stdout).toMatch(/memory\/2026-04-01\.md:1-3/);

    const status = await runCli(['memory', 'status'], state.env);
    expect(status.stdout).toMatch(/memory \(main\): KEYWORD-ONLY/);
    expect(status.stdout).toMatch(/files\s+2/);

    const explained = await runCli(['memory', 'search', 'backup', 'bucket', 'giraffe', '--json', '--min-score', '0.5'], state.env);
    expect(explained.code, explained.stderr).toBe(0);
    expect(JSON.parse(explained.stdout).results[0].explain).toMatchObject({ matched: ['backup', 'bucket'], missing: ['giraffe'], dateFrom: 'file time' });
    const strict = await runCli(['memory', 'search', 'backup', 'giraffe', 'volcano', '--min-score', '0.9'], state.env);
    expect(strict.stdout).toMatch(/No matches/);
    const loose = await runCli(['memory', 'search', 'backup', 'giraffe', 'volcano', '--min-score', '0.2'], state.env);
    expect(loose.stdout).toMatch(/MEMORY\.md:1-3/);
    const badScore = await runCli(['memory', 'search', 'backup', '--min-score', 'high'], state.env);
    expect(badScore.code).toBe(2);
    expect(badScore.stderr).toMatch(/--min-score takes a number from 0 to 1/);
    const common = await runCli(['memory', 'search', 'what', 'is', 'the'], state.env);
    expect(common.stdout).toMatch(/only common words/);

    const usage = await runCli(['memory', 'search'], state.env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Give a query/);
  }, 120_000);

  it('goes through the gateway when one is running', async () => {
    state = makeTempState();
    seed(state);
    const start = await runCli(['gateway', 'start', '--port', '0'], state.env);
    expect(start.code, start.stderr).toBe(0);
    const index = await runCli(['memory', 'index', '--json'], state.env);
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ stats: { filesScanned: 2 }, status: { agentId: 'main', files: 2 } });
    const search = await runCli(['memory', 'search', '--json', 'backup', 'bucket'], state.env);
    expect(JSON.parse(search.stdout).results[0]).toMatchObject({ path: 'MEMORY.md' });
  }, 120_000);
});
