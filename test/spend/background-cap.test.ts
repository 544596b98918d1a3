import { afterEach, describe, expect, it } from 'vitest';
import { MAX_OUTPUT, PRICE, startSpendGateway, type SpendGateway } from './spend-harness.js';

let gateway: SpendGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const CAP = 0.01;

/** What the fake provider billed: its reported usage at the model's price. */
function billed(gateway: SpendGateway): number {
  return gateway.llm.requests.reduce((sum, request) => {
    const input = Math.ceil(request.rawBody.length / 4);
    const output = Math.ceil('done'.length / 4) + 1;
    return sum + (input * PRICE.input + output * PRICE.output) / 1_000_000;
  }, 0);
}

describe('a background daily cap', () => {
  it('a cron job every 2 s stops at $0.01: no call once its worst case no longer fits, the rest recorded skipped: budget', async () => {
    gateway = await startSpendGateway({ background: { dailyUsd: CAP, dailyTokens: null } });
    gateway.llm.setDefault({ text: 'done' });
    const client = await gateway.connect();
    const { job } = await client.request('cron.add', {
      job: { name: 'poll', schedule: { kind: 'every', every: '2s' }, payload: { kind: 'agentTurn', message: 'check the inbox' } },
    });
    for (let step = 0; step < 15; step += 1) {
      gateway.clock.advance(2000);
      await gateway.quiesce();
    }
    const runs = gateway.core.schedule.cron.runLog.runs(job.id);
    const ok = runs.filter((run) => run.status === 'ok');
    const skipped = runs.filter((run) => run.status === 'skipped');
    expect(ok.length).toBeGreaterThan(0);
    expect(gateway.llm.requests.length).toBe(ok.length);
    expect(skipped.length).toBeGreaterThan(5);
    for (const run of skipped) expect(run.reason).toMatch(/^budget: .*budgets\.background\.dailyUsd/);
    // Once a slot was skipped for the budget, no later slot ran.
    const firstSkip = runs.findIndex((run) => run.status === 'skipped');
    expect(runs.slice(firstSkip).every((run) => run.status === 'skipped')).toBe(true);
    const { today, background, budgets } = await client.request('spend.status', {});
    // The ledger holds what the provider reported, and the cap was never passed.
    expect(background.usd).toBeCloseTo(billed(gateway), 9);
    expect(today.usd).toBeLessThanOrEqual(CAP);
    expect(background.calls).toBe(ok.length);
    // The next call was refused because its worst case (its input and 1,000 output tokens) no longer fit.
    const worstOutput = (MAX_OUTPUT * PRICE.output) / 1_000_000;
    expect(today.usd + worstOutput).toBeGreaterThan(CAP - ((gateway.llm.requests.at(-1)!.rawBody.length / 4) * PRICE.input) / 1_000_000);
    expect(budgets.find((use) => use.key === 'budgets.background.dailyUsd')).toMatchObject({ cap: CAP, used: today.usd });
  });
});
