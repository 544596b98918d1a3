import { afterEach, describe, expect, it } from 'vitest';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { STOPPED_REASON } from '../../source/schedule/cron-service.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { quiesce } from './schedule-harness.js';

/** Holds every turn until it is aborted (a drain cuts it short), remembering what it was asked. */
class HangingRunner implements TurnRunner {
  readonly started: string[] = [];
  readonly aborted: string[] = [];

  async run(turn: TurnContext): Promise<TurnOutcome> {
    if (turn.signal.aborted) {
      this.aborted.push(...turn.messages.map((message) => message.messageId));
      return { status: 'aborted', error: 'aborted' };
    }
    for (const message of turn.messages) this.started.push(message.messageId);
    await new Promise<void>((resolve) => turn.signal.addEventListener('abort', () => resolve(), { once: true }));
    return { status: 'aborted', error: 'aborted' };
  }
}

const MIN = 60_000;
const config = { gateway: { drainTimeoutMs: 200 } };

let state: TempState | undefined;
let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  state?.cleanup();
  state = undefined;
});

describe('cron on a clean stop', () => {
  it('records a slot the drain cut short as interrupted at stop time, and the next start neither runs it again nor records it twice', async () => {
    state = makeTempState('claw-cron-stop-');
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9));
    const hanging = new HangingRunner();
    gateway = await startTestGateway({ config, state, core: { clock, runner: hanging } });
    const client = await gateway.connect();
    const { job } = await client.request('cron.add', {
      job: { name: 'digest', schedule: { kind: 'every', every: '1h' }, payload: { kind: 'agentTurn', message: 'write the digest' } },
    });
    clock.advance(61 * MIN);
    for (let i = 0; i < 200 && hanging.started.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hanging.started).toHaveLength(1);

    const core = gateway.core;
    await gateway.stop();
    gateway = undefined;
    // Settled by the stop itself, not left "running" for the next start to find.
    const [stopped] = core.schedule.cron.runLog.runs(job.id);
    expect(stopped).toMatchObject({ status: 'interrupted', reason: STOPPED_REASON });

    const later = new HangingRunner();
    gateway = await startTestGateway({ config, state, core: { clock: new ManualClock(clock.now()), runner: later } });
    await quiesce(gateway.core);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await quiesce(gateway.core);
    expect(later.started).toEqual([]);
    const runs = gateway.core.schedule.runs(job.id);
    expect(runs.filter((run) => run.scheduledAt === stopped!.scheduledAt)).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'interrupted', reason: STOPPED_REASON });
  });
});
