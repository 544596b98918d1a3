import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUIET_RUN } from '../../source/protocol/index.js';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { quiesce } from './schedule-harness.js';

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  state?.cleanup();
  state = undefined;
});

/** Answers every turn with `reply` after a model call of 50 ms, counting the calls made (a turn aborted first makes none). */
function counting(reply: string): TurnRunner & { turns: string[] } {
  const turns: string[] = [];
  return {
    turns,
    async run(turn: TurnContext): Promise<TurnOutcome> {
      if (turn.signal.aborted) return { status: 'aborted' };
      turns.push(turn.runId);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (turn.signal.aborted) return { status: 'aborted' };
      turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: reply }], stopReason: 'stop' });
      return { status: 'replied', text: reply };
    },
  };
}

/** An acceptance in the inbound journal, as the killed process fsynced it (after every record already there). */
function journalAccepted(dir: string, record: { runId: string; messageId: string; channel: string; sessionKey: string; text: string; at: number }): void {
  mkdirSync(join(dir, 'queue'), { recursive: true });
  const file = join(dir, 'queue', 'inbound.jsonl');
  const seqs = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { seq: number }).seq)
    : [];
  const line = {
    t: 'accepted',
    seq: Math.max(0, ...seqs) + 1,
    dedupeKey: `${record.channel}\u0000${record.messageId}`,
    agentId: 'main',
    mode: 'followup',
    background: true,
    ...record,
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

const settle = async (g: TestGateway): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await quiesce(g.core);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('turns the journal replays after a kill', () => {
  it('a cron slot killed between the journal and the run log’s dispatched line is run once, not replayed and retried both', async () => {
    state = makeTempState();
    const first = counting('first');
    gateway = await startTestGateway({ state, core: { runner: first } });
    const client = await gateway.connect();
    const { job } = await client.request('cron.add', {
      job: { name: 'report', schedule: { kind: 'every', every: '1h' }, payload: { kind: 'agentTurn', message: 'write the report' }, retryInterrupted: true },
    });
    await gateway.stop();
    gateway = undefined;
    // The killed process had written the slot's `started` line and the journal's acceptance, not the `dispatched` line.
    const slot = Date.now() - 1000;
    mkdirSync(join(state.paths.cron, 'runs'), { recursive: true });
    appendFileSync(
      join(state.paths.cron, 'runs', `${job.id}.jsonl`),
      `${JSON.stringify({ type: 'started', scheduledAt: slot, startedAt: slot, attempt: 1 })}\n`,
    );
    journalAccepted(state.dir, {
      runId: 'replay-1',
      messageId: `cron:${job.id}:${slot}:1`,
      channel: 'cron',
      sessionKey: `cron:${job.id}`,
      text: 'write the report',
      at: slot,
    });

    const runner = counting('the report');
    gateway = await startTestGateway({ state, core: { runner } });
    await settle(gateway);
    const runs = gateway.core.schedule.runs(job.id).filter((run) => run.scheduledAt === slot);
    // The replay is stopped before its model call; attempt 2 is the one run of the slot.
    expect(runs.map((run) => `${run.attempt ?? 1}:${run.status}`)).toEqual(['2:ok']);
    expect(readFileSync(join(state.paths.cron, 'runs', `${job.id}.jsonl`), 'utf8')).toContain('"status":"interrupted"');
    expect(runner.turns).toHaveLength(1);
    expect(runner.turns).not.toContain('replay-1');
  });

  it('a heartbeat run replayed after a kill ends somewhere: its alert goes out, and a quiet reply is marked quiet', async () => {
    state = makeTempState();
    const config = { agents: { defaults: { heartbeat: { every: '48h', target: 'none' } } } };
    writeFileSync(state.paths.config, JSON.stringify(config));
    const at = Date.now() - 1000;
    journalAccepted(state.dir, {
      runId: 'hb-1',
      messageId: `heartbeat:main:${at}`,
      channel: 'heartbeat',
      sessionKey: 'agent:main:main',
      text: 'Read HEARTBEAT.md',
      at,
    });
    gateway = await startTestGateway({ state, core: { runner: counting('HEARTBEAT_OK') } });
    await settle(gateway);
    expect(gateway.core.schedule.heartbeat.status()[0]?.lastOutcome).toBe('quiet');
    const entries = (await gateway.core.sessions.registry.open('agent:main:main')).entries();
    expect(entries.filter((e) => e.type === 'custom' && e.customType === QUIET_RUN && JSON.stringify(e.data).includes(`heartbeat:main:${at}`))).toHaveLength(1);
    await gateway.stop();

    journalAccepted(state.dir, {
      runId: 'hb-2',
      messageId: `heartbeat:main:${at + 1}`,
      channel: 'heartbeat',
      sessionKey: 'agent:main:main',
      text: 'Read HEARTBEAT.md',
      at: at + 1,
    });
    gateway = await startTestGateway({ state, core: { runner: counting('The build is red.') } });
    await settle(gateway);
    expect(gateway.core.schedule.heartbeat.status()[0]?.lastOutcome).toMatch(/alert/);
  });
});
