import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, writeRawConfig } from '../../source/config/index.js';
import { dayOf, daysBefore, scopesOf, SpendLedger, type SpendKind } from '../../source/providers/index.js';
import { runCli } from '../support/cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState;
let child: GatewayChild;

/** Settled calls on past days, as the gateway's own ledger writes them. */
function seed(state: TempState): void {
  const ledger = new SpendLedger(state.paths.spendLedger);
  const today = dayOf(Date.now());
  const call = (back: number, kind: string, usd: number, model: string, n: number): void => {
    const day = daysBefore(today, back);
    const charge = { agentId: 'main', sessionKey: 'agent:main:main', kind: kind as SpendKind };
    const record = {
      id: `seed-${n}`,
      at: Date.now() - back * 86_400_000,
      day,
      agent: 'main',
      session: charge.sessionKey,
      model,
      kind,
      scopes: scopesOf(charge, day),
    };
    ledger.reserve(record, { tokens: 1000, usd });
    ledger.settle(record, { tokens: 1000, usd }, { tokens: 1000, usd, input: 900, output: 100, cacheRead: 0, cacheWrite: 0, estimated: false });
  };
  call(6, 'interactive', 0.5, 'fake/big', 1);
  call(3, 'interactive', 0.25, 'fake/small', 2);
  call(3, 'cron', 0.75, 'fake/small', 3);
  call(0, 'heartbeat', 0.1, 'fake/small', 4);
  ledger.close();
}

beforeAll(async () => {
  state = makeTempState();
  writeRawConfig(state.paths.config, { agents: { defaults: { heartbeat: { every: '0' } } } });
  seed(state);
  child = await startGatewayChild(state);
}, 60_000);

afterAll(async () => {
  await child.kill9();
  state.cleanup();
});

const cli = (args: string[], columns?: number) => runCli(args, { ...state.env, ...(columns ? { COLUMNS: String(columns) } : {}) });

describe('claw usage and claw budget', () => {
  for (const columns of [80, 200]) {
    it(`claw usage draws the daily chart sized to ${columns} columns`, async () => {
      const { code, stdout, stderr } = await cli(['usage', '--days', '7'], columns);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const lines = stdout.split('\n');
      expect(lines[0]).toBe(`Spend ${daysBefore(dayOf(Date.now()), 6)} … ${dayOf(Date.now())}: $1.60, 4000 tokens`);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      const days = lines.filter((line) => /^\d{4}-\d\d-\d\d {2}/.test(line));
      expect(days).toHaveLength(7);
      const bar = (line: string) => [...line.slice(12)].filter((c) => c !== ' ' && !/[$.\d]/.test(c)).length;
      // The biggest day (interactive $0.25 + cron $0.75) fills the bar; the one of $0.50 is half of it, all solid.
      const biggest = days[3]!;
      expect(biggest).toMatch(/█+░+ +\$1\.00$/);
      expect(bar(biggest)).toBe(columns - 10 - 2 - 1 - 6 - 1);
      expect(days[0]).toMatch(/^\S+ {2}█+ +\$0\.50$/);
      expect(Math.abs(bar(days[0]!) - bar(biggest) / 2)).toBeLessThanOrEqual(1);
      expect(days[6]).toMatch(/░+ +\$0\.10$/);
      expect(days[1]).toMatch(/^\S+ {2} +\$0\.00$/);
    });
  }

  it('claw usage --by model prints a table, --json the figures', async () => {
    const table = await cli(['usage', '--by', 'model', '--days', '7']);
    expect(table.stdout).toMatch(/fake\/small\s+3\s+3,000\s+\$1\.10/);
    expect(table.stdout).toMatch(/fake\/big\s+1\s+1,000\s+\$0\.50/);
    const json = JSON.parse((await cli(['usage', '--json', '--days', '2'])).stdout) as { total: { usd: number }; daily: unknown[] };
    expect(json.total.usd).toBeCloseTo(0.1, 9);
    expect(json.daily).toHaveLength(2);
    const bad = await cli(['usage', '--by', 'colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--by takes one of agent, session, model, kind');
  });

  it('claw budget set writes a cap the gateway applies at once; a wrong key writes nothing', async () => {
    const set = await cli(['budget', 'set', 'budgets.globalDaily.usd', '5']);
    expect(set.stdout).toContain('budgets.globalDaily.usd = 5');
    expect(loadConfig(state.paths.config).budgets.globalDaily.usd).toBe(5);
    const wrong = await cli(['budget', 'set', 'budgets.globalDaily.dollars', '5']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Nothing was written');
    const notBudget = await cli(['budget', 'set', 'agents.defaults.model', 'x']);
    expect(notBudget.stderr).toContain('is not a budget key');
    const client = await child.connect();
    for (let i = 0; i < 100; i += 1) {
      const { budgets } = await client.request('spend.status', {});
      if (budgets.some((use) => use.key === 'budgets.globalDaily.usd')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const status = await cli(['budget']);
    expect(status.stdout).toMatch(/budgets\.globalDaily\.usd\s+░+\s+\$0\.10 of \$5\.00 \(2%\)/);
    expect(status.stdout).toMatch(/budgets\.background\.dailyUsd\s+█*░+\s+\$0\.10 of \$1\.00 \(10%\) {2}background today/);
    expect(status.stdout).toContain('a turn          $1.00 or 1.0M tokens (interactive turns ask you to go past it');
    const gateway = await cli(['status']);
    expect(gateway.stdout).toMatch(/spend {4}today \$0\.10, 1000 tokens/);
    const cost = await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/cost' });
    expect(cost.reply).toMatch(/^today {4}\$0\.10 · 1000 tokens · 1 calls \(interactive \$0\.00, background \$0\.10\)/);
    expect(cost.reply).toMatch(/7 days {3}[▁-█]{7} \$1\.60/);
    const setByCommand = await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/cost set budgets.globalDaily.usd off' });
    expect(setByCommand.reply).toContain('off (no cap)');
    expect(loadConfig(state.paths.config).budgets.globalDaily.usd).toBeNull();
    client.close();
  });
});

describe('claw usage and claw budget without a gateway', () => {
  it('read the ledger file itself, and resume lifts a pause on disk', async () => {
    const offline = makeTempState();
    try {
      const env = { ...offline.env, COLUMNS: '100' };
      const empty = await runCli(['usage'], env);
      expect(empty.code).toBe(0);
      expect(empty.stdout).toContain('No model calls in this window.');
      seed(offline);
      const ledger = new SpendLedger(offline.paths.spendLedger);
      ledger.pause('agent:main:main', Date.now(), '99 model calls in the last minute');
      ledger.close();
      const usage = await runCli(['usage', '--by', 'agent'], env);
      expect(usage.stdout).toMatch(/^main\s+4\s+4,000\s+\$1\.60$/m);
      const budget = await runCli(['budget'], env);
      expect(budget.stdout).toContain('Paused by the runaway guard:\n  agent:main:main: 99 model calls in the last minute.');
      const resumed = await runCli(['budget', 'resume', 'agent:main:main'], env);
      expect(resumed.stdout).toBe('Resumed agent:main:main: it may call the model again.\n');
      expect((await runCli(['budget'], env)).stdout).not.toContain('Paused');
    } finally {
      offline.cleanup();
    }
  });
});
