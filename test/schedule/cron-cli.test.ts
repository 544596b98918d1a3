import { afterEach, describe, expect, it } from 'vitest';
import { resolveJob } from '../../source/cli/commands/cron.js';
import { runCli } from '../support/cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let child: GatewayChild | undefined;
afterEach(async () => {
  await child?.stop();
  child = undefined;
  state?.cleanup();
  state = undefined;
});

describe('claw cron and claw heartbeat', () => {
  it('adds, lists, edits, runs, shows runs and removes a job; bad input exits 2 with the reason', async () => {
    state = makeTempState();
    child = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    const env = state.env;
    const added = await runCli(
      ['cron', 'add', '--name', 'digest', '--cron', '0 8 * * 1-5', '--tz', 'Europe/Berlin', '--message', 'Summarise my inbox', '--announce', 'main', '--json'],
      env,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const job = JSON.parse(added.stdout) as { id: string; schedule: unknown; delivery: unknown };
    expect(job.schedule).toEqual({ kind: 'cron', expr: '0 8 * * 1-5', tz: 'Europe/Berlin' });
    expect(job.delivery).toEqual({ mode: 'announce', to: 'main' });

    const list = await runCli(['cron', 'list'], env);
    expect(list.stdout).toMatch(new RegExp(`${job.id}\\s+digest\\s+on\\s+cron 0 8 \\* \\* 1-5 Europe/Berlin\\s+20\\d\\d-`));

    // A job is named by its ID, its name when unique (any case), or the start of its ID.
    expect((await runCli(['cron', 'disable', 'digest'], env)).stdout).toMatch(/updated .* disabled/);
    expect((await runCli(['cron', 'edit', job.id.slice(0, 6), '--every', '2h'], env)).stdout).toMatch(/every 2h/);
    expect((await runCli(['cron', 'enable', 'DIGEST'], env)).stdout).toMatch(/next run/);
    const unknown = await runCli(['cron', 'runs', 'weekly-report'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no job "weekly-report" \(by ID, name or ID prefix/);

    expect((await runCli(['cron', 'run', job.id], env)).code).toBe(0);
    let runs = '';
    for (let i = 0; i < 50 && !/\bok\b/.test(runs); i += 1) {
      runs = (await runCli(['cron', 'runs', 'digest'], env)).stdout;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs).toMatch(/SLOT\s+STATUS[\s\S]*\bok\b.*entry:/);

    const bad = await runCli(['cron', 'add', '--name', 'x', '--cron', '61 * * * *', '--message', 'm'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/cron expression "61 \* \* \* \*" is not valid/);
    const noPayload = await runCli(['cron', 'add', '--name', 'x', '--every', '1h'], env);
    expect(noPayload.code).toBe(2);
    expect(noPayload.stderr).toMatch(/needs --name, a schedule .* and a payload/);

    expect((await runCli(['cron', 'rm', job.id], env)).stdout).toMatch(/removed/);
    expect((await runCli(['cron', 'list'], env)).stdout).toMatch(/No cron jobs/);

    const status = await runCli(['heartbeat', 'status'], env);
    expect(status.stdout).toMatch(/heartbeat \(main\): on[\s\S]*every\s+30m/);
    expect((await runCli(['heartbeat', 'pause'], env)).stdout).toMatch(/heartbeat \(main\): paused/);
    // A paused heartbeat is not woken to be skipped: `now` says it will not run, and why.
    const paused = await runCli(['heartbeat', 'now'], env);
    expect(paused.code).not.toBe(0);
    expect(paused.stderr).toMatch(/is paused, so it will not run; `claw heartbeat resume`/);
    expect((await runCli(['heartbeat', 'resume'], env)).stdout).toMatch(/heartbeat \(main\): on/);
    expect((await runCli(['heartbeat', 'now'], env)).stdout).toMatch(/woken/);
    const ghost = await runCli(['heartbeat', 'status', '--agent', 'ghost'], env);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/no agent "ghost"; known agents: main/);
  }, 120_000);
});

describe('naming a job on the command line', () => {
  it('resolves an ID, a unique name in any case or an ID prefix, and says which jobs an ambiguous one could mean', () => {
    const jobs = [
      { id: 'a1b2c3d4', name: 'digest' },
      { id: 'a1ff0000', name: 'backup' },
      { id: 'e5e5e5e5', name: 'Backup' },
    ];
    expect(resolveJob(jobs, 'a1b2c3d4')).toEqual({ id: 'a1b2c3d4' });
    expect(resolveJob(jobs, 'digest')).toEqual({ id: 'a1b2c3d4' });
    expect(resolveJob(jobs, 'DIGEST')).toEqual({ id: 'a1b2c3d4' });
    expect(resolveJob(jobs, 'backup')).toEqual({ id: 'a1ff0000' });
    expect(resolveJob(jobs, 'BACKUP')).toEqual({
      error: expect.stringMatching(/2 jobs are named "BACKUP" \(a1ff0000 "backup", e5e5e5e5 "Backup"\): give the ID/),
    });
    expect(resolveJob(jobs, 'e5')).toEqual({ id: 'e5e5e5e5' });
    expect(resolveJob(jobs, 'a1')).toEqual({ error: expect.stringMatching(/"a1" starts 2 job IDs/) });
  });
});
