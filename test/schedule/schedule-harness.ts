import type { Core } from '../../source/core/index.js';
import type { CronJob } from '../../source/protocol/index.js';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';

/** A job as `cron add` would have written it at `createdAt`, its next run at `nextRunAt`, with no run yet. */
export function savedJob(options: Pick<CronJob, 'id' | 'schedule' | 'catchUp'> & { createdAt: number; nextRunAt: number }): CronJob {
  const { id, schedule, catchUp, createdAt, nextRunAt } = options;
  return {
    id,
    name: id,
    agentId: 'main',
    enabled: true,
    schedule,
    anchorAt: createdAt,
    sessionTarget: 'isolated',
    payload: { kind: 'agentTurn', message: `run ${id}` },
    delivery: { mode: 'none' },
    deleteAfterRun: false,
    catchUp,
    retryInterrupted: false,
    allowScheduling: false,
    createdAt,
    createdBy: 'user',
    state: { consecutiveErrors: 0, scheduleErrors: 0, nextRunAt },
  };
}

/** Answers each turn at once and remembers what it was asked, per session. */
export class RecordingRunner implements TurnRunner {
  readonly turns: Array<{ sessionKey: string; text: string; channel: string }> = [];
  reply: (turn: TurnContext) => TurnOutcome = () => ({ status: 'replied', text: 'done' });

  async run(turn: TurnContext): Promise<TurnOutcome> {
    await new Promise((resolve) => setImmediate(resolve));
    for (const message of turn.messages) this.turns.push({ sessionKey: turn.sessionKey, text: message.text, channel: message.channel });
    const outcome = this.reply(turn);
    if (outcome.text) turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: outcome.text }], stopReason: 'stop' });
    return outcome;
  }
}

export interface ScheduleGateway extends TestGateway {
  clock: ManualClock;
  runner: RecordingRunner;
  /** Waits until no turn runs and the schedule service has written everything. */
  quiesce(): Promise<void>;
  /** Moves the clock to `at` in steps (default 10 min), letting the work each step starts finish before the next. */
  advanceTo(at: number, stepMs?: number): Promise<void>;
}

export async function quiesce(core: Core): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    await core.schedule.settled();
    await new Promise((resolve) => setImmediate(resolve));
    if (core.lanes.runningCount() === 0 && core.lanes.snapshot().lanes.every((lane) => lane.depth === 0)) {
      await core.schedule.settled();
      return;
    }
  }
  throw new Error('the gateway did not become idle');
}

/** A real in-process gateway whose core runs on a manual clock and a recording runner. */
export async function startScheduleGateway(options: { config?: Record<string, unknown>; start?: number } = {}): Promise<ScheduleGateway> {
  const clock = new ManualClock(options.start);
  const runner = new RecordingRunner();
  const gateway = await startTestGateway({ ...(options.config ? { config: options.config } : {}), core: { clock, runner } });
  const settle = (): Promise<void> => quiesce(gateway.core);
  return Object.assign(gateway, {
    clock,
    runner,
    quiesce: settle,
    async advanceTo(at: number, stepMs = 10 * 60_000) {
      while (clock.now() < at) {
        const step = Math.min(at - clock.now(), stepMs);
        clock.advance(step);
        await settle();
      }
    },
  });
}
